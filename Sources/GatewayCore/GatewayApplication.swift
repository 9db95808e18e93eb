import Logging

/// One loaded configuration: settings, mounted routes and the middleware chain. Immutable; a reload builds a
/// new one and in-flight requests finish on the one they started with. A class, so handing it to each
/// request costs one reference count.
public final class GatewayApplication: Sendable {
    public let server: ServerSettings
    public let router: Router
    public let log: LogSettings
    /// Keys the config file sets that nothing read: typos, or sections of routes that are not enabled.
    public let unusedKeys: [String]
    /// The order every request passes through, outermost first: the request id goes on every answer,
    /// errors become JSON, oversized bodies are refused before any route runs.
    private let chain: Chained<RequestIdMiddleware, Chained<ErrorRenderingMiddleware, BodyGuardMiddleware>>
    let runtime: GatewayRuntime

    init(server: ServerSettings, router: Router, log: LogSettings, unusedKeys: [String], runtime: GatewayRuntime) {
        self.server = server
        self.router = router
        self.log = log
        self.unusedKeys = unusedKeys
        self.runtime = runtime
        chain = Chained(
            RequestIdMiddleware(), Chained(ErrorRenderingMiddleware(), BodyGuardMiddleware(limit: server.maxBodyBytes)))
    }

    /// The context for a request that has just arrived.
    func makeContext(for request: GatewayRequest, receivedAt: ContinuousClock.Instant) -> RequestContext {
        let sent = request.header("X-Request-Id")
        let id = sent.flatMap { RequestIdGenerator.isAcceptable($0) ? $0 : nil } ?? runtime.requestIds.next()
        return RequestContext(
            requestId: id,
            deadline: receivedAt.advanced(by: server.requestTimeout),
            logger: runtime.logger
        )
    }

    /// The exchange for a request that has just been decoded: its context, and its route looked up.
    public func exchange(for request: consuming GatewayRequest, receivedAt: ContinuousClock.Instant = .now)
        -> Exchange
    {
        Exchange(request: request, application: self, receivedAt: receivedAt)
    }

    func run(
        _ request: GatewayRequest,
        _ context: RequestContext,
        endpoint: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) -> GatewayResponse {
        do {
            return try chain.handle(request, context: context, next: endpoint)
        } catch {
            // Only a middleware outside the error renderer can get here.
            context.logger.error("error escaped the middleware chain", metadata: ["error": "\(error)"])
            return ErrorRenderingMiddleware.response(for: .internalError)
        }
    }
}
