import GatewayCore
import GatewayText
import Logging

/// Process-wide services that outlive any one config load.
package struct GatewayRuntime: Sendable {
    package let stats: GatewayStats
    package let metrics: GatewayMetrics
    package let logger: Logger
    /// The log level loads set; shared with the process's log handlers.
    package let logControl: LogControl
    package let requestIds: RequestIdGenerator
    /// `logger`'s handler when it is a ``LineLogHandler`` with no fields of its own: request lines are then
    /// written through it directly, without swift-log's metadata dictionaries.
    let lines: LineLogHandler?
    /// Where `lines` writes, read once here: request lines go straight to it.
    let linesOutput: LogOutput?

    package init(
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
        lines = (logger.handler as? LineLogHandler).flatMap { $0.addsNoFields ? $0 : nil }
        linesOutput = lines?.output
    }
}
