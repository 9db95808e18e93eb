import GatewayCore
import GatewayHandlerAPI
import Logging
import Synchronization

/// One loaded configuration: settings, mounted routes and the middleware chain. Immutable; a reload builds a
/// new one and in-flight requests finish on the one they started with. A class, so handing it to each
/// request costs one reference count.
package final class GatewayApplication: Sendable, CustomReflectable {
    package let server: ServerSettings
    package let router: Router
    package let log: LogSettings
    /// What deserves a look but did not stop the load: keys nothing read (typos, sections of routes that are not
    /// enabled), `STOREGATE_…` variables that name no key, routes that cannot answer as configured.
    package let warnings: [ConfigProblem]
    /// The middleware every request passes through, in this order: errors become JSON (it never throws,
    /// so nothing escapes it), oversized bodies are refused before any route runs.
    private let errors = ErrorRenderingMiddleware()
    private let bodyGuard: BodyGuardMiddleware
    let runtime: GatewayRuntime
    /// What the load's capabilities built once and shared (the catalog, the ledger, the verification services).
    private let store: SharedStore

    init(
        server: ServerSettings, router: Router, log: LogSettings, warnings: [ConfigProblem], runtime: GatewayRuntime,
        store: SharedStore
    ) {
        self.server = server
        self.router = router
        self.log = log
        self.warnings = warnings
        self.runtime = runtime
        self.store = store
        bodyGuard = BodyGuardMiddleware(limit: server.maxBodyBytes)
    }

    /// Nothing: a loaded application holds every route's services and their keys.
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The value this load built under `key`, if any (for commands that work with a loaded config, such as a
    /// notification backfill, and for the serving process's background work).
    package func existing<Value: Sendable>(_ key: SharedKey<Value>) -> Value? {
        store.existing(for: key)
    }

    /// Numbers the exchanges of the process: a context's `exchange`, which content is bound to.
    private static let exchangeNumbers = Atomic<UInt64>(0)

    /// The context for a request that has just arrived.
    func makeContext(for request: GatewayRequest, receivedAt: ContinuousClock.Instant) -> RequestContext {
        let sent = request.header("X-Request-Id")
        let id = sent.flatMap { RequestIdGenerator.isAcceptable($0) ? $0 : nil } ?? runtime.requestIds.next()
        return RequestContext(
            requestId: id,
            deadline: receivedAt.advanced(by: server.requestTimeout),
            logger: runtime.logger,
            exchange: Self.exchangeNumbers.add(1, ordering: .relaxed).newValue
        )
    }

    /// The exchange for a request that has just been decoded: its context, and its route looked up.
    package func exchange(for request: consuming GatewayRequest, receivedAt: ArrivalTime = .now)
        -> Exchange
    {
        Exchange(request: request, application: self, receivedAt: receivedAt)
    }

    /// The answer `endpoint` gives through the middleware chain. The transport echoes the request id on
    /// it (`X-Request-Id`), errors included.
    func run(
        _ request: GatewayRequest,
        _ context: RequestContext,
        endpoint: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) -> GatewayResponse {
        errors.answer(request, context: context) { request, context in
            try bodyGuard.handle(request, context: context, next: endpoint)
        }
    }
}
