import CoreMetrics
import Logging

/// What a backend's background work is handed: the ledger's evidence of what was delivered, and the store's
/// requests for it; the follow-ups recorded with the store's purchases; the process's logger, metrics and
/// request ids.
package struct StoreServices: Sendable {
    package let evidence: DeliveryEvidence
    package let followUps: StoreFollowUps
    package let logger: Logger
    package let metricsFactory: any MetricsFactory
    /// A fresh request id, for the log lines and ledger rows of one piece of work.
    package let nextRequestId: @Sendable () -> String

    package init(
        evidence: DeliveryEvidence, followUps: StoreFollowUps, logger: Logger, metricsFactory: any MetricsFactory,
        nextRequestId: @escaping @Sendable () -> String
    ) {
        self.evidence = evidence
        self.followUps = followUps
        self.logger = logger
        self.metricsFactory = metricsFactory
        self.nextRequestId = nextRequestId
    }
}
