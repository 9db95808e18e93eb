import Foundation
import GatewayHandlerAPI
import PurchaseLedger

/// The ledger's evidence of delivery, for a store that asks what reached a customer who wants a refund (the
/// App Store's consumption requests, Google Play's refund reviews): the requests recorded with their notifications, claimed by one gateway
/// at a time and settled once, and the facts of each purchase's delivery.
package struct DeliveryEvidence: Sendable {
    private let ledger: any PurchaseLedger
    private let catalog: Catalog

    package init(ledger: any PurchaseLedger, catalog: Catalog) {
        self.ledger = ledger
        self.catalog = catalog
    }

    /// Claims up to `limit` of `store`'s requests due now, for `lease` (no other gateway gets them meanwhile).
    package func claimRequests(store: String, lease: TimeInterval, limit: Int) throws(LedgerError)
        -> [ConsumptionRequest]
    {
        try ledger.claimConsumptionRequests(store: store, now: Date(), lease: lease, limit: limit)
    }

    /// Settles `request` with the answer sent, if any, and the outcome.
    package func settle(
        _ request: ConsumptionRequest, state: ConsumptionRequestState, answer: String?, outcome: String
    ) throws(LedgerError) {
        _ = try ledger.settleConsumptionRequest(
            request.notificationUUID, state: state, answer: answer, outcome: outcome, at: Date())
    }

    /// Releases `request` for another attempt at `nextAttempt`.
    package func deferRequest(_ request: ConsumptionRequest, until nextAttempt: Date, outcome: String)
        throws(LedgerError)
    {
        try ledger.deferConsumptionRequest(request.notificationUUID, until: nextAttempt, outcome: outcome)
    }

    /// What the ledger and the catalog say about the delivery of `request`'s purchase.
    package func facts(for request: ConsumptionRequest) throws(LedgerError) -> DeliveryFacts {
        let grants = try ledger.deliveries(
            environment: request.environment, originalTransactionId: request.originalTransactionId)
        let failures = try ledger.deliveryFailures(
            environment: request.environment, originalTransactionId: request.originalTransactionId)
        let product = catalog.product(id: request.productId)
        return DeliveryFacts(
            productId: request.productId, hasContent: product?.content != nil,
            offersSample: product?.offersSample ?? false, grants: grants.filter { $0.productId == request.productId },
            failures: failures.filter { $0.productId == request.productId }, kind: product?.kind)
    }
}
