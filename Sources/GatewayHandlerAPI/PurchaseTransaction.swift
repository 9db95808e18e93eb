import Foundation

/// One purchase transaction as a store vouched for it, in the store's neutral form. Each store module maps
/// its own sources (an answer, a receipt record, a signed payload) to this with typed values.
public struct PurchaseTransaction: Sendable, Equatable {
    public let transactionId: String
    /// The purchase the transaction belongs to; restores make new transactions with the same original.
    public let originalTransactionId: String
    public let productId: String
    /// The subscription period's id, for auto-renewable subscriptions.
    public let webOrderLineItemId: String?
    public let purchaseDate: Date?
    public let expiresDate: Date?
    /// Set when the store refunded or revoked the transaction.
    public let cancellationDate: Date?
    public let quantity: Int
    /// The app account the purchase was made for, when the store carries one (Apple's `appAccountToken`, a
    /// UUID in lowercase).
    public let accountToken: String?

    public init(
        transactionId: String, originalTransactionId: String, productId: String, webOrderLineItemId: String?,
        purchaseDate: Date?, expiresDate: Date?, cancellationDate: Date?, quantity: Int, accountToken: String? = nil
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.webOrderLineItemId = webOrderLineItemId
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.quantity = quantity
        self.accountToken = accountToken
    }
}
