import Foundation
import GatewayHandlerAPI
import PurchaseVerification

extension PurchaseTransaction {
    /// A transaction object of a verifyReceipt answer, read tolerantly: ids and dates may be strings or
    /// numbers, optional fields may be missing. Nil when it lacks a transaction id or product id.
    init?(receiptFields fields: JSONValue) {
        guard let transactionId = fields["transaction_id"]?.text, !transactionId.isEmpty,
            let productId = fields["product_id"]?.text, !productId.isEmpty
        else { return nil }
        self.init(
            transactionId: transactionId,
            originalTransactionId: fields["original_transaction_id"]?.text ?? transactionId,
            productId: productId,
            webOrderLineItemId: Self.lineItem(fields["web_order_line_item_id"]),
            purchaseDate: AppleDate.read("purchase_date", in: fields),
            expiresDate: AppleDate.read("expires_date", in: fields),
            cancellationDate: AppleDate.read("cancellation_date", in: fields),
            quantity: fields["quantity"]?.integer.map { Int(clamping: $0) } ?? 1)
    }

    /// A StoreKit 2 JWSTransaction payload: dates are milliseconds, a refund or revocation is
    /// `revocationDate`. Nil when it lacks a transaction id or product id.
    init?(signedPayload fields: JSONValue) {
        guard let transactionId = fields["transactionId"]?.text, !transactionId.isEmpty,
            let productId = fields["productId"]?.text, !productId.isEmpty
        else { return nil }
        self.init(
            transactionId: transactionId,
            originalTransactionId: fields["originalTransactionId"]?.text ?? transactionId,
            productId: productId,
            webOrderLineItemId: Self.lineItem(fields["webOrderLineItemId"]),
            purchaseDate: AppleDate.milliseconds(fields["purchaseDate"]),
            expiresDate: AppleDate.milliseconds(fields["expiresDate"]),
            cancellationDate: AppleDate.milliseconds(fields["revocationDate"]),
            quantity: fields["quantity"]?.integer.map { Int(clamping: $0) } ?? 1,
            accountToken: fields["appAccountToken"]?.text.flatMap(UUID.init(uuidString:))?.uuidString.lowercased())
    }

    /// A subscription period's id; Apple sends "0" or "" for transactions that have none.
    private static func lineItem(_ value: JSONValue?) -> String? {
        value?.text.flatMap { $0.isEmpty || $0 == "0" ? nil : $0 }
    }
}
