import GatewayHandlerAPI

/// `refund_requests`: whether and how the gateway answers a store that asks what was delivered of a purchase
/// whose refund a customer asked for (the App Store's CONSUMPTION_REQUEST, Google Play's refund review), with the
/// ledger's delivery facts. Store-neutral: each store module puts it in its own words.
package struct RefundRequestPolicy: Sendable, Equatable {
    /// What the gateway says it prefers (`refund_preference`).
    package enum RefundPreference: String, Sendable, CaseIterable {
        /// No preference: the store decides from the facts alone.
        case none
        /// Decline when the purchase was fully delivered.
        case declineWhenDelivered = "decline-when-delivered"
        /// Grant when nothing was delivered.
        case grantWhenUndelivered = "grant-when-undelivered"
        /// Both of the above.
        case byDelivery = "by-delivery"
        /// Grant the share not consumed: as `by-delivery`, but a purchase partly delivered, and any delivered
        /// auto-renewable subscription (the store measures its share by time), gets a prorated refund.
        case prorated
    }

    /// Which way the gateway leans on a refund, by its preference and the facts.
    package enum Lean: Sendable, Equatable {
        case decline
        case grant
        /// Grant the share not consumed.
        case grantProrated
    }

    /// The config section every store reads it from.
    package static let section = "refund_requests"

    /// The customers consented to sharing consumption data (`customer_consented`); without it nothing is sent,
    /// and requests are settled unanswered.
    package let customerConsented: Bool
    package let refundPreference: RefundPreference

    /// Reads the policy from `section` (`refund_requests`, or the App Store's older `apple.consumption`).
    package init(_ section: ConfigReader) {
        customerConsented = section.bool("customer_consented", default: false)
        refundPreference = section.choice("refund_preference", default: RefundPreference.none)
    }

    /// Which way the policy leans for a purchase with `facts`; nil for no preference.
    package func lean(for facts: DeliveryFacts) -> Lean? {
        let fullyDelivered = facts.delivered && (facts.consumedMilliunits ?? 100_000) == 100_000
        return switch refundPreference {
        case .none: nil
        case .declineWhenDelivered: fullyDelivered ? .decline : nil
        case .grantWhenUndelivered: facts.delivered ? nil : .grant
        case .byDelivery: fullyDelivered ? .decline : facts.delivered ? nil : .grant
        case .prorated:
            !facts.delivered ? .grant : facts.kind == .autoRenewable || !fullyDelivered ? .grantProrated : .decline
        }
    }
}
