import struct Foundation.Date

/// A purchase as the ledger holds it.
public struct StoredPurchase: Sendable, Equatable {
    public let environment: String
    public let purchaseKey: PurchaseKey
    public let productId: String
    public let originalTransactionId: String
    /// The newest transaction seen for this purchase (restores add new ones).
    public let latestTransactionId: String
    public let expiresDate: Date?
    public let cancellationDate: Date?
    public let firstSeen: Date
    public let lastSeen: Date
    public let firstSource: LedgerSource
    public let lastSource: LedgerSource

    public init(
        environment: String,
        purchaseKey: PurchaseKey,
        productId: String,
        originalTransactionId: String,
        latestTransactionId: String,
        expiresDate: Date?,
        cancellationDate: Date?,
        firstSeen: Date,
        lastSeen: Date,
        firstSource: LedgerSource,
        lastSource: LedgerSource
    ) {
        self.environment = environment
        self.purchaseKey = purchaseKey
        self.productId = productId
        self.originalTransactionId = originalTransactionId
        self.latestTransactionId = latestTransactionId
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.firstSource = firstSource
        self.lastSource = lastSource
    }
}
