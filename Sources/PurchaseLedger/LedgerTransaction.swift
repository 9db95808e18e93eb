import struct Foundation.Date

/// One App Store transaction as the ledger records it.
public struct LedgerTransaction: Sendable, Equatable {
    /// `Production`, `Sandbox` or `Xcode`.
    public var environment: String
    public var bundleId: String
    public var productId: String
    public var transactionId: String
    public var originalTransactionId: String
    public var webOrderLineItemId: String?
    /// The purchase this transaction belongs to.
    public var purchaseKey: PurchaseKey
    public var purchaseDate: Date?
    public var expiresDate: Date?
    /// Set when Apple refunded or revoked the transaction.
    public var cancellationDate: Date?
    public var quantity: Int

    public init(
        environment: String,
        bundleId: String,
        productId: String,
        transactionId: String,
        originalTransactionId: String,
        webOrderLineItemId: String? = nil,
        purchaseKey: PurchaseKey,
        purchaseDate: Date? = nil,
        expiresDate: Date? = nil,
        cancellationDate: Date? = nil,
        quantity: Int = 1
    ) {
        self.environment = environment
        self.bundleId = bundleId
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.purchaseKey = purchaseKey
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.quantity = quantity
    }
}
