import CoreMetrics
import Logging

/// What every handler is built from, whatever it declares: where it is mounted, its own config section, a
/// logger and the process's metrics. Nothing here reaches the ledger, tokens, secrets or content.
public struct HandlerSetup: Sendable {
    /// The handler's name, as routes name it.
    public let name: String
    /// The path this handler is mounted at.
    public let routePath: String
    /// The handler's own config section, `handlers.<name>` (environment: `STOREGATE_HANDLERS_<NAME>_<KEY>`).
    /// It cannot read any other section.
    public let config: ConfigReader
    public let logger: Logger
    /// Pass as `factory:` to swift-metrics' `Counter`, `Timer`, `Gauge` and `Recorder`: the series land in
    /// the process's Prometheus registry.
    public let metricsFactory: any MetricsFactory
    private let declareCodes: @Sendable ([ErrorCode]) -> Void

    package init(
        name: String, routePath: String, config: ConfigReader, logger: Logger, metricsFactory: any MetricsFactory,
        declare: @escaping @Sendable ([ErrorCode]) -> Void
    ) {
        self.name = name
        self.routePath = routePath
        self.config = config
        self.logger = logger
        self.metricsFactory = metricsFactory
        declareCodes = declare
    }

    /// Makes the `storegate_errors_total` series of the error codes this handler answers (at 0), so alerts
    /// see them before the first error.
    public func declare(_ codes: [ErrorCode]) { declareCodes(codes) }
}
