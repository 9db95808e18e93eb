import Logging

/// Per-request facts that travel beside the request through middleware and handlers.
public struct RequestContext: Sendable {
    /// The client's `X-Request-Id` when it sent a usable one, else one made by the gateway.
    public var requestId: String
    /// When the front stops waiting for this request and answers 504 `timeout` itself.
    public var deadline: ContinuousClock.Instant
    /// The exchange this context belongs to: a number the runtime gives each request it serves, never 0, never
    /// repeated in the process (unlike the request id, which a client may choose). Content made for one
    /// exchange is not sent on another.
    @usableFromInline package let exchange: UInt64
    @usableFromInline let baseLogger: Logger

    /// A context for work that is not a served request (a command, a background job): it can carry no content.
    public init(requestId: String, deadline: ContinuousClock.Instant, logger: Logger) {
        self.init(requestId: requestId, deadline: deadline, logger: logger, exchange: 0)
    }

    /// The context of exchange number `exchange`, as the runtime makes it (inlinable: one per request).
    @inlinable package init(requestId: String, deadline: ContinuousClock.Instant, logger: Logger, exchange: UInt64) {
        self.requestId = requestId
        self.deadline = deadline
        self.baseLogger = logger
        self.exchange = exchange
    }

    /// The gateway's logger with this request's id attached.
    public var logger: Logger {
        var logger = baseLogger
        logger[metadataKey: "request-id"] = "\(requestId)"
        return logger
    }
}
