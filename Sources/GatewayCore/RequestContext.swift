import Logging

/// Per-request facts that travel beside the request through middleware and handlers.
public struct RequestContext: Sendable {
    /// The client's `X-Request-Id` when it sent a usable one, else one made by the gateway.
    public var requestId: String
    /// When the front stops waiting for this request and answers 504 `timeout` itself.
    public var deadline: ContinuousClock.Instant
    private let baseLogger: Logger

    public init(requestId: String, deadline: ContinuousClock.Instant, logger: Logger) {
        self.requestId = requestId
        self.deadline = deadline
        self.baseLogger = logger
    }

    /// The gateway's logger with this request's id attached.
    public var logger: Logger {
        var logger = baseLogger
        logger[metadataKey: "request-id"] = "\(requestId)"
        return logger
    }
}
