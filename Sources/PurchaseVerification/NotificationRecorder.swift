import Foundation
import GatewayHandlerAPI
import Logging
import PurchaseLedger

/// Store server notifications: verified by the backend that reads them, then recorded with their
/// transactions once per notification id. Behind ``NotificationIntake`` (the notifications route) and
/// notification backfills.
package struct NotificationRecorder: Sendable {
    private let stores: StoreBackends
    private let catalog: Catalog
    private let ledger: any PurchaseLedger
    private let accounts: AccountBinder?
    /// Called when a recorded notification carries a request for delivery evidence.
    private let evidenceRequested: @Sendable () -> Void

    package init(
        stores: StoreBackends, catalog: Catalog, ledger: any PurchaseLedger, accounts: AccountBinder?,
        evidenceRequested: @escaping @Sendable () -> Void
    ) {
        self.stores = stores
        self.catalog = catalog
        self.ledger = ledger
        self.accounts = accounts
        self.evidenceRequested = evidenceRequested
    }

    /// Verifies the store server notification `delivery` with the backend that reads it, then records it and
    /// its transactions once per id: a refund or revocation arrives as a cancellation (entitlement gone,
    /// downloads blocked), a renewal as the next period, a reversal clears the cancellation. Returns only
    /// after the ledger commit, so the store's retries deliver anything that failed.
    package func record(_ delivery: NotificationDelivery, context: RequestContext) throws -> NotificationOutcome {
        var found: StoreNotification?
        for backend in stores.backends where found == nil {
            found = try backend.notification(delivery, context: context)
        }
        guard let notification = found else {
            throw GatewayError.badRequest(
                "No store this server is configured for sends notifications like this (the App Store's are {\"signedPayload\": \"<JWS>\"}, Google Play's a Pub/Sub push {\"message\": {\"data\": ...}})."
            )
        }
        for (store, handle) in notification.ended {
            try ledger.endPurchases(knownBy: handle, store: store, source: .notification, context: context)
        }
        let rows = EntitlementRules.ledgerTransactions(
            notification.transactions, environment: notification.environment, bundleId: notification.bundleId ?? "",
            catalog: catalog)
        let evidenceRequest = try notification.evidenceAsked.flatMap { asked in
            try consumptionRequest(asked, in: notification, context: context)
        }
        // A notification that names no transaction of its own is recorded where the purchase it asks about is.
        let environment =
            notification.transactions.isEmpty
            ? evidenceRequest?.environment ?? notification.environment : notification.environment
        let record = LedgerNotification(
            uuid: notification.uuid, environment: environment, type: notification.type,
            subtype: notification.subtype, reinstates: notification.reinstates, expires: notification.expires,
            batch: LedgerBatch(
                transactions: rows, source: .notification, requestId: context.requestId,
                followUps: notification.followUps, handles: notification.handles),
            consumptionRequest: evidenceRequest, renewal: notification.renewal)
        let outcome: NotificationOutcome
        do {
            outcome = try ledger.recordNotification(record) ? .recorded : .duplicate
            // What the store's API says now is recorded even under an id seen before: whoever sent that id first
            // (a replayed push token with a made-up message id) must not keep a later refund out.
            if outcome == .duplicate, notification.readFromStore, !rows.isEmpty { _ = try ledger.record(record.batch) }
        } catch {
            throw error.answer("the ledger could not record a notification", logger: context.logger)
        }
        if outcome == .recorded, evidenceRequest != nil { evidenceRequested() }
        // A repeat binds too: the store retries a notification whose binding failed, and it arrives as one.
        try accounts?.bindByAccountToken(
            notification.transactions, environment: notification.environment, context: context)
        context.logger.info(
            "notification \(outcome.rawValue)",
            metadata: [
                "type": "\(notification.type)", "environment": "\(notification.environment)",
                "uuid": "\(notification.uuid)",
            ])
        return outcome
    }

    /// The request `asked` records: about the notification's transaction, or about the one the store names,
    /// which the ledger must know (a store naming an order only, as Google does, asks about a purchase the
    /// gateway may never have seen; then there is no delivery to tell of, and the store decides alone).
    private func consumptionRequest(
        _ asked: EvidenceAsked, in notification: StoreNotification, context: RequestContext
    ) throws -> ConsumptionRequest? {
        let request = { (environment: String, transactionId: String, original: String, productId: String) in
            ConsumptionRequest(
                notificationUUID: notification.uuid, store: asked.store, environment: environment,
                transactionId: transactionId, originalTransactionId: original, productId: productId,
                requestedAt: asked.requestedAt, app: asked.app, subject: asked.subject)
        }
        guard let transactionId = asked.transactionId else {
            return notification.transactions.first.map { transaction in
                request(
                    notification.environment, transaction.transactionId, transaction.originalTransactionId,
                    transaction.productId)
            }
        }
        do {
            for original in try ledger.originals(of: transactionId) {
                let stored = try ledger.transactions(
                    environment: original.environment, originalTransactionId: original.originalTransactionId)
                // A subscription's first order names its purchase, and may be recorded only as its renewals.
                let named =
                    stored.first { $0.transactionId == transactionId }
                    ?? (original.originalTransactionId == transactionId ? stored.last : nil)
                if let transaction = named {
                    return request(
                        original.environment, transactionId, original.originalTransactionId, transaction.productId)
                }
            }
        } catch {
            throw error.answer("the ledger could not be read for a refund request", logger: context.logger)
        }
        context.logger.warning(
            "a store asked about a refund of a purchase this gateway never recorded; it decides without an answer",
            metadata: ["type": "\(notification.type)", "transaction_id": "\(transactionId)"])
        return nil
    }
}
