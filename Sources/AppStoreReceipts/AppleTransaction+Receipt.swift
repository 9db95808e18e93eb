import AppStoreSignedData
import Foundation

extension AppleTransaction {
    /// An in-app record of a locally verified receipt, under verifyReceipt's names.
    init?(_ purchase: AppReceipt.InAppPurchase) {
        let milliseconds = { (date: Date?) in
            date.map { JSONValue.string(String(Int64($0.timeIntervalSince1970 * 1000))) }
        }
        let fields: [String: JSONValue?] = [
            "transaction_id": .string(purchase.transactionId),
            "original_transaction_id": .string(purchase.originalTransactionId),
            "product_id": .string(purchase.productId), "quantity": .integer(Int64(purchase.quantity)),
            "web_order_line_item_id": purchase.webOrderLineItemId.map(JSONValue.string),
            "purchase_date_ms": milliseconds(purchase.purchaseDate),
            "original_purchase_date_ms": milliseconds(purchase.originalPurchaseDate),
            "expires_date_ms": milliseconds(purchase.expiresDate),
            "cancellation_date_ms": milliseconds(purchase.cancellationDate),
        ]
        self.init(.object(fields.compactMapValues { $0 }))
    }
}
