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
        let familyShared = fields["in_app_ownership_type"]?.text == Self.familyShared
        self.init(
            transactionId: transactionId,
            originalTransactionId: Self.original(
                fields["original_transaction_id"]?.text ?? transactionId, familyShared: familyShared),
            productId: productId,
            webOrderLineItemId: Self.lineItem(fields["web_order_line_item_id"]),
            purchaseDate: AppleDate.read("purchase_date", in: fields),
            expiresDate: AppleDate.read("expires_date", in: fields),
            cancellationDate: AppleDate.read("cancellation_date", in: fields),
            quantity: fields["quantity"]?.integer.map { Int(clamping: $0) } ?? 1,
            familyShared: familyShared)
    }

    /// A StoreKit 2 JWSTransaction payload: dates are milliseconds, a refund or revocation is
    /// `revocationDate` with its `revocationType` and `revocationPercentage`. A prorated refund of a consumable
    /// pack takes back that share of its items and cancels it only when that is all of them. Nil when it lacks a
    /// transaction id or product id.
    init?(signedPayload fields: JSONValue) {
        guard let transactionId = fields["transactionId"]?.text, !transactionId.isEmpty,
            let productId = fields["productId"]?.text, !productId.isEmpty
        else { return nil }
        let quantity = max(1, fields["quantity"]?.integer.map { Int(clamping: $0) } ?? 1)
        let revocation = Self.revocation(of: fields, quantity: quantity)
        let familyShared = fields["inAppOwnershipType"]?.text == Self.familyShared
        self.init(
            transactionId: transactionId,
            originalTransactionId: Self.original(
                fields["originalTransactionId"]?.text ?? transactionId, familyShared: familyShared),
            productId: productId,
            webOrderLineItemId: Self.lineItem(fields["webOrderLineItemId"]),
            purchaseDate: AppleDate.milliseconds(fields["purchaseDate"]),
            expiresDate: AppleDate.milliseconds(fields["expiresDate"]),
            cancellationDate: revocation.flatMap { $0.quantity == quantity ? $0.date : nil },
            quantity: quantity,
            accountToken: fields["appAccountToken"]?.text.flatMap(UUID.init(uuidString:))?.uuidString.lowercased(),
            familyShared: familyShared, revocation: revocation,
            appTransactionId: fields["appTransactionId"]?.text.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Apple's `inAppOwnershipType` (and the receipt's `in_app_ownership_type`) for a family member's access.
    private static let familyShared = "FAMILY_SHARED"

    /// The purchase id a transaction is kept under: Apple's original transaction id, qualified for a family
    /// member's access (`app-store:family:<original>`), which is a purchase of its own that accounts claim, tokens
    /// name and a revocation ends apart from the buyer's, even where Apple gave both the buyer's original id.
    private static func original(_ original: String, familyShared: Bool) -> String {
        familyShared ? "\(AppStoreVerification.store):family:\(original)" : original
    }

    /// What Apple refunded or revoked of a signed transaction of `quantity` items, if anything. Its percentage
    /// covers the whole quantity ("1 of 3 items refunded is about 33.333%"), so a consumable pack (of several
    /// items) loses that share of them, rounded to the nearest; anything else is taken back whole.
    private static func revocation(of fields: JSONValue, quantity: Int) -> PurchaseRevocation? {
        guard let date = AppleDate.milliseconds(fields["revocationDate"]) else { return nil }
        let type = fields["revocationType"]?.text
        let percentage = fields["revocationPercentage"]?.integer.map { Int(clamping: $0) }
        var taken = quantity
        if type == "REFUND_PRORATED", fields["type"]?.text == "Consumable", quantity > 1, let percentage {
            let share = (Double(quantity) * Double(min(max(percentage, 0), 100_000)) / 100_000).rounded()
            taken = min(quantity, Int(share))
        }
        return PurchaseRevocation(date: date, type: type, percentageMilliunits: percentage, quantity: taken)
    }

    /// A subscription period's id; Apple sends "0" or "" for transactions that have none.
    private static func lineItem(_ value: JSONValue?) -> String? {
        value?.text.flatMap { $0.isEmpty || $0 == "0" ? nil : $0 }
    }
}
