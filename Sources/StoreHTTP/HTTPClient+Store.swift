import AsyncHTTPClient
import GatewayConcurrency
import NIOCore

extension HTTPClient {
    /// A client for a store's hosts (Apple's, Google's) as every store call of the gateway wants it: TLS
    /// verified (the default configuration checks certificates and host names fully), no redirects followed, a
    /// connect timeout of at most 5 s, and a refused connection failing the call at once, so the caller's retry
    /// policy decides. No tracer: AsyncHTTPClient would take the process's (swift-distributed-tracing's
    /// `InstrumentationSystem`), which a handler module can bootstrap, and a twenty-third reviewer's read each
    /// call's URL (the transaction id another route's client sent) and status there.
    package static func forStore(callTimeout: Duration, maxConnectionsPerHost: Int = 8) -> HTTPClient {
        var pool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: maxConnectionsPerHost)
        pool.retryConnectionEstablishment = false
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .nanoseconds(min(callTimeout, .seconds(5)).nanoseconds)),
            connectionPool: pool
        )
        configuration.tracing.tracer = nil
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }
}
