import CoreMetrics
import GatewayHandlerAPI
import Logging

/// What a store module builds its backends from: its own config section, the load's catalog, and the process's
/// logger and metrics.
package struct StoreSetup: Sendable {
    /// The store's section, such as `apple`.
    package let section: ConfigReader
    /// Whether the config has the section at all (in the file or the environment).
    package let isConfigured: Bool
    /// The load's catalog (nil when it could not be read; the load then fails anyway): a store whose API asks
    /// differently for different kinds of product reads their kinds here.
    package let catalog: Catalog?
    package let logger: Logger
    package let metricsFactory: any MetricsFactory
    /// Makes the `storegate_errors_total` series of the store's error codes (at 0).
    package let declare: @Sendable ([ErrorCode]) -> Void
    /// How the deployment answers stores that ask what was delivered of a purchase a customer wants refunded
    /// (`refund_requests`); nil without the section, when such requests are recorded and left pending.
    package let refundRequests: RefundRequestPolicy?

    package init(
        section: ConfigReader, isConfigured: Bool, catalog: Catalog?, logger: Logger,
        metricsFactory: any MetricsFactory, refundRequests: RefundRequestPolicy? = nil,
        declare: @escaping @Sendable ([ErrorCode]) -> Void
    ) {
        self.section = section
        self.refundRequests = refundRequests
        self.isConfigured = isConfigured
        self.catalog = catalog
        self.logger = logger
        self.metricsFactory = metricsFactory
        self.declare = declare
    }
}
