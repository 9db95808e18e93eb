import Logging

/// Process-wide services that outlive any one config load.
public struct GatewayRuntime: Sendable {
    public let stats: GatewayStats
    public let logger: Logger
    public let requestIds: RequestIdGenerator

    public init(stats: GatewayStats, logger: Logger, requestIds: RequestIdGenerator = RequestIdGenerator()) {
        self.stats = stats
        self.logger = logger
        self.requestIds = requestIds
    }
}
