/// How the ledger tells purchases apart (DESIGN.md 5): a restore gives a purchase a new transaction id but
/// keeps its original transaction id, subscription periods are told apart by their web order line item, and
/// each consumable transaction is a purchase of its own.
public struct PurchaseKey: Hashable, Sendable, CustomStringConvertible {
    /// The stored form, such as `original:1000000061051111`.
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A non-consumable or free subscription: one purchase however often it is restored.
    public static func original(_ originalTransactionId: String) -> PurchaseKey {
        PurchaseKey(rawValue: "original:\(originalTransactionId)")
    }

    /// One period of an auto-renewable subscription.
    public static func subscriptionPeriod(_ webOrderLineItemId: String) -> PurchaseKey {
        PurchaseKey(rawValue: "period:\(webOrderLineItemId)")
    }

    /// A purchase that is exactly one transaction (consumables, non-renewing subscriptions, unknown products).
    public static func transaction(_ transactionId: String) -> PurchaseKey {
        PurchaseKey(rawValue: "transaction:\(transactionId)")
    }

    public var description: String { rawValue }
}
