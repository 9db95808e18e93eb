import Foundation

/// A subscription purchase as `purchases.subscriptionsv2.get` answers it: the fields the gateway reads, typed.
package struct SubscriptionPurchaseV2: Decodable, Sendable, Equatable {
    /// `subscriptionState`.
    package enum State: String, Sendable {
        case pending = "SUBSCRIPTION_STATE_PENDING"
        case active = "SUBSCRIPTION_STATE_ACTIVE"
        case paused = "SUBSCRIPTION_STATE_PAUSED"
        case inGracePeriod = "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
        case onHold = "SUBSCRIPTION_STATE_ON_HOLD"
        case canceled = "SUBSCRIPTION_STATE_CANCELED"
        case expired = "SUBSCRIPTION_STATE_EXPIRED"
        case pendingPurchaseCanceled = "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"
        case unspecified = "SUBSCRIPTION_STATE_UNSPECIFIED"
    }

    /// One subscription product of the purchase (`lineItems`).
    package struct LineItem: Decodable, Sendable, Equatable {
        package let productId: String
        package let expiryTime: Date?
        /// The order of the period that was paid last.
        package let latestSuccessfulOrderId: String?

        enum CodingKeys: String, CodingKey { case productId, expiryTime, latestSuccessfulOrderId }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            productId = try container.decode(String.self, forKey: .productId)
            expiryTime = try container.decodeGoogleDate(forKey: .expiryTime)
            latestSuccessfulOrderId = try container.decodeIfPresent(String.self, forKey: .latestSuccessfulOrderId)
        }
    }

    package let state: State
    package let lineItems: [LineItem]
    /// The token of the subscription this one replaced (an upgrade, a downgrade, a resubscription).
    package let linkedPurchaseToken: String?
    package let startTime: Date?
    /// `testPurchase` is present: a license tester's purchase, Google's sandbox.
    package let isTest: Bool
    package let isAcknowledged: Bool
    /// `externalAccountIdentifiers.obfuscatedExternalAccountId`.
    package let obfuscatedExternalAccountId: String?

    enum CodingKeys: String, CodingKey {
        case subscriptionState, lineItems, linkedPurchaseToken, startTime, testPurchase, acknowledgementState
        case externalAccountIdentifiers
    }

    enum AccountKeys: String, CodingKey { case obfuscatedExternalAccountId }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let stateName = try container.decodeIfPresent(String.self, forKey: .subscriptionState)
        state = stateName.flatMap(State.init(rawValue:)) ?? .unspecified
        lineItems = try container.decodeIfPresent([LineItem].self, forKey: .lineItems) ?? []
        linkedPurchaseToken = try container.decodeIfPresent(String.self, forKey: .linkedPurchaseToken)
        startTime = try container.decodeGoogleDate(forKey: .startTime)
        isTest = container.contains(.testPurchase)
        isAcknowledged =
            try container.decodeIfPresent(String.self, forKey: .acknowledgementState)
            == "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"
        let account = try? container.nestedContainer(keyedBy: AccountKeys.self, forKey: .externalAccountIdentifiers)
        obfuscatedExternalAccountId = try account?.decodeIfPresent(String.self, forKey: .obfuscatedExternalAccountId)
    }
}
