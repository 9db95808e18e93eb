/// How the ledger tells purchases apart (docs/ARCHITECTURE.md 7): a restore gives a purchase a new transaction id but
/// keeps its original transaction id, subscription periods are told apart by their web order line item, and
/// each consumable transaction is a purchase of its own.
package struct PurchaseKey: Hashable, Sendable, CustomStringConvertible {
    /// The stored form, such as `original:1000000061051111`.
    package let rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A non-consumable or free subscription: one purchase however often it is restored.
    package static func original(_ originalTransactionId: String) -> PurchaseKey {
        PurchaseKey(rawValue: "original:\(originalTransactionId)")
    }

    /// One period of an auto-renewable subscription.
    package static func subscriptionPeriod(_ webOrderLineItemId: String) -> PurchaseKey {
        PurchaseKey(rawValue: "period:\(webOrderLineItemId)")
    }

    /// A purchase that is exactly one transaction (consumables, non-renewing subscriptions, unknown products).
    package static func transaction(_ transactionId: String) -> PurchaseKey {
        PurchaseKey(rawValue: "transaction:\(transactionId)")
    }

    /// A free grant (`storegate grant`): a purchase of its own, keyed by the grant's id.
    package static func freeGrant(_ grantId: String) -> PurchaseKey {
        PurchaseKey(rawValue: "grant:\(grantId)")
    }

    /// A family member's access to a purchase through Family Sharing (`key` as the buyer's would be): kept apart
    /// from the buyer's, so revoking the family member's access never touches the buyer's purchase.
    package static func familyShared(_ key: PurchaseKey) -> PurchaseKey {
        PurchaseKey(rawValue: "family:\(key.rawValue)")
    }

    /// Whether this is a family member's access through Family Sharing.
    package var isFamilyShared: Bool { rawValue.hasPrefix("family:") }

    /// Whether this purchase is a free grant rather than something bought.
    package var isFreeGrant: Bool { rawValue.hasPrefix("grant:") }

    package var description: String { rawValue }
}
