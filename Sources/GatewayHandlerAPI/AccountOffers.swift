/// The App Store offers the asserted app account may have for one auto-renewable subscription, as the gateway
/// decided them from the ledger, each signed for StoreKit (`Product.PurchaseOption.introductoryOfferEligibility(
/// compactJWS:)` and `.promotionalOffer(_:compactJWS:)`).
public struct AccountOffers: Sendable, Equatable {
    /// Whether the account may have the product's introductory offer, and the JWS that tells StoreKit so.
    public struct Introductory: Sendable, Equatable {
        /// True when the account never subscribed in the product's subscription group.
        public let eligible: Bool
        /// Nil when the ledger knows no transaction of the customer's, which Apple's signature must name: then
        /// StoreKit decides eligibility itself.
        public let signature: String?

        package init(eligible: Bool, signature: String?) {
            self.eligible = eligible
            self.signature = signature
        }
    }

    /// A promotional offer the account may have now, and its JWS.
    public struct Promotional: Sendable, Equatable {
        /// The offer's identifier in App Store Connect.
        public let offerId: String
        public let signature: String

        package init(offerId: String, signature: String) {
            self.offerId = offerId
            self.signature = signature
        }
    }

    public let accountId: String
    public let productId: String
    /// Nil when the config signs no introductory offers (`offers.introductory: false`).
    public let introductory: Introductory?
    public let promotional: [Promotional]

    package init(accountId: String, productId: String, introductory: Introductory?, promotional: [Promotional]) {
        self.accountId = accountId
        self.productId = productId
        self.introductory = introductory
        self.promotional = promotional
    }
}
