import GatewayHandlerAPI
import PurchaseLedger

/// What this gateway knows about the delivery of one purchase, from its ledger and catalog: the evidence a
/// store's consumption request (a customer asked for a refund) is answered with.
package struct DeliveryFacts: Sendable, Equatable {
    package let productId: String
    /// The catalog has a file for the product (false for products without content, and for ids the catalog no
    /// longer lists).
    package let hasContent: Bool
    /// The catalog marks the product as offering a free sample or preview (`sample: true`).
    package let offersSample: Bool
    /// The content grants recorded for this purchase and product, oldest first.
    package let grants: [Delivery]
    /// The downloads of it this gateway failed to deliver (it answered a server error), oldest first.
    package let failures: [DeliveryFailure]
    /// What the catalog sells it as; nil for an id the catalog no longer lists.
    package let kind: Product.Kind?

    package init(
        productId: String, hasContent: Bool, offersSample: Bool, grants: [Delivery], failures: [DeliveryFailure] = [],
        kind: Product.Kind? = nil
    ) {
        self.productId = productId
        self.hasContent = hasContent
        self.offersSample = offersSample
        self.grants = grants
        self.failures = failures
        self.kind = kind
    }

    /// Whether the purchase reached the customer: its content was granted, or it has none (its entitlement
    /// was all there was to deliver).
    package var delivered: Bool { !hasContent || !grants.isEmpty }

    /// Whether it did not reach the customer because of us: every download of it failed on the gateway's side.
    package var undeliveredByOutage: Bool { !delivered && !failures.isEmpty }

    /// The share of the product's content granted, in milliunits: its one file, all or nothing; nil for a
    /// product without content, where there is nothing to measure.
    package var consumedMilliunits: Int? { hasContent ? (grants.isEmpty ? 0 : 100_000) : nil }
}
