import Foundation
import GatewayCore
import PurchaseLedger

extension VerificationService {
    /// What a store server notification did to the ledger.
    public enum NotificationOutcome: String, Sendable {
        case recorded
        /// Its UUID was recorded before; nothing changed.
        case duplicate
    }

    /// Records verified `purchases` in the ledger (unless this service committed them before, unchanged) and
    /// works out their entitlements.
    func record(_ purchases: StorePurchases, source: LedgerSource, context: RequestContext) throws(GatewayError)
        -> VerifiedPurchases
    {
        let rows = EntitlementRules.ledgerTransactions(
            purchases.transactions, environment: purchases.environment, bundleId: purchases.bundleId,
            catalog: catalog)
        let batch = LedgerBatch(transactions: rows, source: source, requestId: context.requestId)
        let outcome: RecordOutcome
        if committed.containsUnchanged(rows) {
            outcome = RecordOutcome(recorded: 0, known: batch.purchases.count)
        } else {
            do {
                outcome = try ledger.record(batch)
            } catch {
                var logger = context.logger
                for (key, value) in purchases.logMetadata { logger[metadataKey: key] = value }
                throw error.answer("the ledger could not record verified transactions", logger: logger)
            }
            try bindByAccountToken(purchases.transactions, environment: purchases.environment, context: context)
            committed.remember(rows)
        }
        let entitlements = EntitlementRules.entitlements(from: purchases.transactions, catalog: catalog, now: Date())
        return VerifiedPurchases(
            status: purchases.status, environment: purchases.environment, bundleId: purchases.bundleId,
            transactions: purchases.transactions, entitlements: entitlements, recorded: outcome,
            storeFacts: purchases.logMetadata)
    }

    /// Verifies the store server notification in `body` with the backend that reads it, then records it and
    /// its transactions once per UUID: a refund or revocation arrives as a cancellation (entitlement gone,
    /// downloads blocked), a renewal as the next period, a reversal clears the cancellation. Returns only
    /// after the ledger commit, so the store's retries deliver anything that failed.
    public func record(notification body: [UInt8], context: RequestContext) throws -> NotificationOutcome {
        var found: StoreNotification?
        for backend in backends where found == nil { found = try backend.notification(body, context: context) }
        guard let notification = found else { throw GatewayError.badRequest("No store sends notifications like this.") }
        let rows = EntitlementRules.ledgerTransactions(
            notification.transactions, environment: notification.environment, bundleId: notification.bundleId ?? "",
            catalog: catalog)
        let consumptionRequest = notification.consumptionRequestedAt.flatMap { asked in
            notification.transactions.first.map { transaction in
                ConsumptionRequest(
                    notificationUUID: notification.uuid, environment: notification.environment,
                    transactionId: transaction.transactionId, originalTransactionId: transaction.originalTransactionId,
                    productId: transaction.productId, requestedAt: asked)
            }
        }
        let record = LedgerNotification(
            uuid: notification.uuid, environment: notification.environment, type: notification.type,
            subtype: notification.subtype, reinstates: notification.reinstates,
            batch: LedgerBatch(transactions: rows, source: .notification, requestId: context.requestId),
            consumptionRequest: consumptionRequest)
        let outcome: NotificationOutcome
        do {
            outcome = try ledger.recordNotification(record) ? .recorded : .duplicate
        } catch {
            throw error.answer("the ledger could not record a notification", logger: context.logger)
        }
        if outcome == .recorded, consumptionRequest != nil { consumptionResponder?.wake() }
        // A repeat binds too: the store retries a notification whose binding failed, and it arrives as one.
        try bindByAccountToken(notification.transactions, environment: notification.environment, context: context)
        context.logger.info(
            "notification \(outcome.rawValue)",
            metadata: [
                "type": "\(notification.type)", "environment": "\(notification.environment)",
                "uuid": "\(notification.uuid)",
            ])
        return outcome
    }

    /// Records a content grant before any byte goes out.
    func recordDelivery(of entitlement: VerifiedEntitlement, contentSHA256: String, context: RequestContext)
        throws(GatewayError)
    {
        do {
            try ledger.recordDelivery(
                Delivery(
                    environment: entitlement.environment, productId: entitlement.productId,
                    originalTransactionId: entitlement.originalTransactionId, contentSHA256: contentSHA256,
                    requestId: context.requestId))
        } catch {
            throw error.answer("the ledger could not record a download", logger: context.logger)
        }
    }
}
