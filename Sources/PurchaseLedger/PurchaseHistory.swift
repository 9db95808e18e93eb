import struct Foundation.Date

/// Where a transaction belongs: the purchase it was recorded under, by environment.
package struct LedgerOriginal: Sendable, Equatable, Hashable {
    package let environment: String
    package let originalTransactionId: String

    package init(environment: String, originalTransactionId: String) {
        self.environment = environment
        self.originalTransactionId = originalTransactionId
    }
}

/// A transaction as the ledger holds it: what the store said of it, and who recorded it first.
package struct StoredTransaction: Sendable, Equatable {
    package let transactionId: String
    package let productId: String
    package let purchaseDate: Date?
    package let expiresDate: Date?
    package let cancellationDate: Date?
    package let firstSeen: Date
    package let source: LedgerSource
    package let requestId: String
    package let quantity: Int
    /// A family member's access through Family Sharing.
    package let familyShared: Bool
    /// What the store refunded or revoked of it.
    package let revocation: LedgerRevocation?
    /// The customer's app transaction, when known.
    package let appTransactionId: String?
}

/// A store notification as the ledger holds it.
package struct StoredNotification: Sendable, Equatable {
    package let uuid: String
    package let type: String
    package let subtype: String?
    package let received: Date
    package let requestId: String
}

/// Everything the ledger knows about one original transaction, for the people who answer customer mail.
package struct PurchaseHistory: Sendable, Equatable {
    package let original: LedgerOriginal
    package let purchases: [StoredPurchase]
    package let transactions: [StoredTransaction]
    package let deliveries: [Delivery]
    package let notifications: [StoredNotification]
    package let consumptionRequests: [StoredConsumptionRequest]
    /// Who held it and how that changed (bound, shared, transferred, claims refused).
    package let bindingEvents: [BindingEvent]
    /// The app accounts holding it now.
    package let holders: [String]
    /// The free grants recorded as it, or tied to it as a customer's purchase.
    package let freeGrants: [FreeGrant]
    /// Every restore-sync that named it, whether or not it brought anything new.
    package let restores: [Restore]
    /// What the store was to be told about it (Google's acknowledgement), and how that went.
    package let followUps: [StoredFollowUp]
    /// The downloads of it the gateway failed to deliver.
    package let deliveryFailures: [DeliveryFailure]
    /// How it renews, as the store said it notification by notification (subscriptions).
    package let renewals: [SubscriptionRenewal]
    /// The events its changes wrote, and their deliveries to the app's backends.
    package let events: [LedgerEvent]
    package let eventDeliveries: [StoredEventDelivery]
}

extension PurchaseLedger {
    /// The whole record of `original`, read in several queries (a support lookup, not a hot path).
    package func history(of original: LedgerOriginal) throws(LedgerError) -> PurchaseHistory {
        let (environment, id) = (original.environment, original.originalTransactionId)
        return PurchaseHistory(
            original: original,
            purchases: try purchases(environment: environment, originalTransactionId: id),
            transactions: try transactions(environment: environment, originalTransactionId: id),
            deliveries: try deliveries(environment: environment, originalTransactionId: id),
            notifications: try notifications(environment: environment, originalTransactionId: id),
            consumptionRequests: try consumptionRequests(environment: environment, originalTransactionId: id),
            bindingEvents: try bindingEvents(environment: environment, originalTransactionId: id),
            holders: try holders(environment: environment, originalTransactionId: id),
            freeGrants: try freeGrants(.about(environment: environment, originalTransactionId: id)),
            restores: try restores(environment: environment, originalTransactionId: id),
            followUps: try followUps(environment: environment, originalTransactionId: id),
            deliveryFailures: try deliveryFailures(environment: environment, originalTransactionId: id),
            renewals: try renewals(environment: environment, originalTransactionId: id),
            events: try events(environment: environment, originalTransactionId: id),
            eventDeliveries: try eventDeliveries(environment: environment, originalTransactionId: id))
    }
}
