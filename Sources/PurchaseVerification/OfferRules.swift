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
        /// Had a period the store did not take back, has none running and no renewal being collected: a win-back
        /// offer's audience.
        case lapsed

        /// Whether an account with `history` in the product's group is in this audience.
        func admits(_ history: SubscriptionHistory) -> Bool {
            switch self {
            case .everyone: true
            case .neverSubscribed: !history.everSubscribed
            case .subscribed: history.active
            case .lapsed: history.hadPeriod && !history.active
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
    /// The environment whose purchases count (`Production`; `Sandbox` to try offers with sandbox purchases).
    package let environment: String

    /// The `offers` section, checked against `catalog` (every offer's product an auto-renewable subscription).
    package init(section scope: ConfigReader, catalog: Catalog) {
        introductory = scope.bool("introductory", default: true)
        environment = scope.string("environment", default: "Production")
        var seen = Set<[String]>()
        promotional = scope.sequence("promotional").compactMap { entry in
            let id = entry.requiredString("id")
            let product = entry.requiredString("product")
            let audience: Audience? =
                entry.string("for") == nil
                ? {
                    entry.report("for", "is required: everyone, never-subscribed, subscribed or lapsed"); return nil
                }()
                : entry.choice("for")
            guard let id, let product, let audience else { return nil }
            guard seen.insert([id, product]).inserted else {
                entry.report("id", "\"\(id)\" is listed twice for \(product)")
                return nil
            }
            guard catalog.product(id: product)?.kind == .autoRenewable else {
                entry.report("product", "\"\(product)\" is not an auto-renewable subscription of the catalog")
                return nil
            }
            return Promotional(offerId: id, productId: product, audience: audience)
        }
    }
}
