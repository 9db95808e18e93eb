import GatewayHandlerAPI

/// `offers`: which subscription offers the gateway signs, and for whom: the introductory offer's eligibility
/// (`introductory`, on by default), and each promotional offer set up in App Store Connect with its audience.
package struct OfferRules: Sendable {
    /// Who may have a promotional offer, by the account's subscriptions in the product's group.
    package enum Audience: String, CaseIterable, Sendable {
        case everyone
        /// Never subscribed in the group.
        case neverSubscribed = "never-subscribed"
        /// Subscribed now.
        case subscribed
        /// Subscribed once, not now: a win-back offer's audience.
        case lapsed

        /// Whether an account that `everSubscribed`, and is `active` now, is in this audience.
        func admits(everSubscribed: Bool, active: Bool) -> Bool {
            switch self {
            case .everyone: true
            case .neverSubscribed: !everSubscribed
            case .subscribed: active
            case .lapsed: everSubscribed && !active
            }
        }
    }

    /// A promotional offer: its id in App Store Connect, its product and its audience.
    package struct Promotional: Sendable, Equatable {
        package let offerId: String
        package let productId: String
        package let audience: Audience
    }

    package let introductory: Bool
    package let promotional: [Promotional]

    /// The `offers` section, checked against `catalog` (every offer's product an auto-renewable subscription).
    package init(section scope: ConfigReader, catalog: Catalog) {
        introductory = scope.bool("introductory", default: true)
        promotional = scope.sequence("promotional").compactMap { entry in
            let id = entry.requiredString("id")
            let product = entry.requiredString("product")
            let audience = entry.choice("for", default: Audience.everyone)
            guard let id, let product else { return nil }
            guard catalog.product(id: product)?.kind == .autoRenewable else {
                entry.report("product", "\"\(product)\" is not an auto-renewable subscription of the catalog")
                return nil
            }
            return Promotional(offerId: id, productId: product, audience: audience)
        }
    }
}
