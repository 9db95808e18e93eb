import struct Foundation.Date

/// Where a transaction belongs: the purchase it was recorded under, by environment.
public struct LedgerOriginal: Sendable, Equatable, Hashable {
    public let environment: String
    public let originalTransactionId: String

    public init(environment: String, originalTransactionId: String) {
        self.environment = environment
        self.originalTransactionId = originalTransactionId
    }
}

/// A transaction as the ledger holds it: what the store said of it, and who recorded it first.
public struct StoredTransaction: Sendable, Equatable {
    public let transactionId: String
    public let productId: String
    public let purchaseDate: Date?
    public let expiresDate: Date?
    public let cancellationDate: Date?
    public let firstSeen: Date
    public let source: LedgerSource
    public let requestId: String
}

/// A store notification as the ledger holds it.
public struct StoredNotification: Sendable, Equatable {
    public let uuid: String
    public let type: String
    public let subtype: String?
    public let received: Date
    public let requestId: String
}

/// Everything the ledger knows about one original transaction, for the people who answer customer mail.
public struct PurchaseHistory: Sendable, Equatable {
    public let original: LedgerOriginal
    public let purchases: [StoredPurchase]
    public let transactions: [StoredTransaction]
    public let deliveries: [Delivery]
    public let notifications: [StoredNotification]
    public let consumptionRequests: [StoredConsumptionRequest]
    /// Who held it and how that changed (bound, shared, transferred, claims refused).
    public let bindingEvents: [BindingEvent]
    /// The app accounts holding it now.
    public let holders: [String]
}

extension PurchaseLedger {
    /// The whole record of `original`, read in several queries (a support lookup, not a hot path).
    public func history(of original: LedgerOriginal) throws(LedgerError) -> PurchaseHistory {
        let (environment, id) = (original.environment, original.originalTransactionId)
        return PurchaseHistory(
            original: original,
            purchases: try purchases(environment: environment, originalTransactionId: id),
            transactions: try transactions(environment: environment, originalTransactionId: id),
            deliveries: try deliveries(environment: environment, originalTransactionId: id),
            notifications: try notifications(environment: environment, originalTransactionId: id),
            consumptionRequests: try consumptionRequests(environment: environment, originalTransactionId: id),
            bindingEvents: try bindingEvents(environment: environment, originalTransactionId: id),
            holders: try holders(environment: environment, originalTransactionId: id))
    }
}
