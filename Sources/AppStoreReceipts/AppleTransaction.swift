import Foundation

/// One in-app purchase transaction from a verifyReceipt answer, read tolerantly: ids and dates may be
/// strings or numbers, optional fields may be missing, and every field Apple sent stays in `fields`.
public struct AppleTransaction: Sendable, Equatable {
    public let transactionId: String
    public let originalTransactionId: String
    public let productId: String
    public let webOrderLineItemId: String?
    public let purchaseDate: Date?
    public let expiresDate: Date?
    /// Set when Apple refunded or revoked the transaction.
    public let cancellationDate: Date?
    public let quantity: Int
    /// Everything Apple sent for this transaction, known or not.
    public let fields: JSONValue

    /// Reads a transaction object; nil when it lacks a transaction id or product id.
    public init?(_ fields: JSONValue) {
        guard let transactionId = fields["transaction_id"]?.text, !transactionId.isEmpty,
            let productId = fields["product_id"]?.text, !productId.isEmpty
        else { return nil }
        self.transactionId = transactionId
        self.productId = productId
        originalTransactionId = fields["original_transaction_id"]?.text ?? transactionId
        webOrderLineItemId = fields["web_order_line_item_id"]?.text.flatMap { $0.isEmpty || $0 == "0" ? nil : $0 }
        purchaseDate = AppleDate.read("purchase_date", in: fields)
        expiresDate = AppleDate.read("expires_date", in: fields)
        cancellationDate = AppleDate.read("cancellation_date", in: fields)
        quantity = fields["quantity"]?.integer.map { Int(clamping: $0) } ?? 1
        self.fields = fields
    }
}
