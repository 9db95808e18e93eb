import PurchaseLedger

/// What this gateway knows about the delivery of one purchase, from its ledger and catalog: the evidence a
/// store's consumption request (a customer asked for a refund) is answered with.
public struct DeliveryFacts: Sendable, Equatable {
    public let productId: String
    /// The catalog has a file for the product (false for products without content, and for ids the catalog no
    /// longer lists).
    public let hasContent: Bool
    /// The catalog marks the product as offering a free sample or preview (`sample: true`).
    public let offersSample: Bool
    /// The content grants recorded for this purchase and product, oldest first.
    public let grants: [Delivery]

    public init(productId: String, hasContent: Bool, offersSample: Bool, grants: [Delivery]) {
        self.productId = productId
        self.hasContent = hasContent
        self.offersSample = offersSample
        self.grants = grants
    }

    /// Whether the purchase reached the customer: its content was granted, or it has none (its entitlement
    /// was all there was to deliver).
    public var delivered: Bool { !hasContent || !grants.isEmpty }

    /// The share of the product's content granted, in milliunits: its one file, all or nothing; nil for a
    /// product without content, where there is nothing to measure.
    public var consumedMilliunits: Int? { hasContent ? (grants.isEmpty ? 0 : 100_000) : nil }
}
