import Logging

/// Process-wide services that outlive any one config load.
public struct GatewayRuntime: Sendable {
    public let stats: GatewayStats
    public let metrics: GatewayMetrics
    public let logger: Logger
    /// The log level loads set; shared with the process's log handlers.
    public let logControl: LogControl
    public let requestIds: RequestIdGenerator

    public init(
        stats: GatewayStats,
        metrics: GatewayMetrics = GatewayMetrics(),
        logger: Logger,
        logControl: LogControl = LogControl(),
        requestIds: RequestIdGenerator = RequestIdGenerator()
    ) {
        self.stats = stats
        self.metrics = metrics
        self.logger = logger
        self.logControl = logControl
        self.requestIds = requestIds
    }
}
