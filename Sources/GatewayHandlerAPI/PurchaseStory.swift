/// One purchase as the ledger tells it: which one, who holds it, and every recorded moment of it.
public struct PurchaseStory: Sendable, Equatable {
    /// The store the purchase is from (`app-store`, `google-play`), or `grant` for a free grant.
    public let store: String
    public let environment: String
    /// The purchase's id, stable across restores.
    public let originalTransactionId: String
    /// The product the purchase is for (its newest period's), if the ledger knows it.
    public let productId: String?
    /// The app accounts holding it now.
    public let holders: [String]
    /// Oldest first: bought, recorded, downloaded, notified, refund requested and answered, refunded, granted,
    /// and account changes.
    public let timeline: [TimelineEvent]

    package init(
        store: String, environment: String, originalTransactionId: String, productId: String?, holders: [String],
        timeline: [TimelineEvent]
    ) {
        self.store = store
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.holders = holders
        self.timeline = timeline
    }

    /// One line naming the purchase: store, environment, original transaction, product, and the app accounts
    /// holding it when any do.
    public var heading: String {
        var parts = [store, environment, "purchase \(originalTransactionId)", productId ?? "unknown product"]
        if !holders.isEmpty {
            parts.append("held by account\(holders.count == 1 ? "" : "s") \(holders.joined(separator: ", "))")
        }
        return parts.joined(separator: " · ")
    }
}
