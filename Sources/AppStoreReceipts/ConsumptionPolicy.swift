import AppStoreServerAPI
import Foundation
import GatewayHandlerAPI
import PurchaseVerification

/// `apple.consumption`: whether and how the gateway answers Apple's CONSUMPTION_REQUEST notifications with
/// Send Consumption Information, built from the ledger's delivery facts.
struct ConsumptionPolicy: Sendable, Equatable {
    /// The refund preference sent with an answer (`refund_preference`).
    enum RefundPreference: String, Sendable, CaseIterable {
        /// No preference: Apple decides from the facts alone.
        case none
        /// DECLINE when the purchase was fully delivered.
        case declineWhenDelivered = "decline-when-delivered"
        /// GRANT_FULL when nothing was delivered.
        case grantWhenUndelivered = "grant-when-undelivered"
        /// Both of the above.
        case byDelivery = "by-delivery"
    }

    /// Apple takes answers within 12 hours of its request.
    static let window: TimeInterval = 12 * 3_600

    /// The customers consented to sharing consumption data (`customer_consented`); without it Apple forbids
    /// answering, and requests are settled unanswered.
    let customerConsented: Bool
    let refundPreference: RefundPreference

    /// Reads `consumption` under `apple`; nil when the section is absent (requests are then left pending).
    init?(_ apple: ConfigReader) {
        guard apple.hasSection("consumption") else { return nil }
        let section = apple.scoped("consumption")
        customerConsented = section.bool("customer_consented", default: false)
        refundPreference = section.choice("refund_preference", default: RefundPreference.none)
    }

    /// The answer for a purchase with `facts`.
    func information(for facts: DeliveryFacts) -> ServerAPIConsumption {
        let fullyDelivered = facts.delivered && (facts.consumedMilliunits ?? 100_000) == 100_000
        let preference: ServerAPIConsumption.RefundPreference? =
            switch refundPreference {
            case .none: nil
            case .declineWhenDelivered: fullyDelivered ? .decline : nil
            case .grantWhenUndelivered: facts.delivered ? nil : .grantFull
            case .byDelivery: fullyDelivered ? .decline : facts.delivered ? nil : .grantFull
            }
        return ServerAPIConsumption(
            customerConsented: customerConsented, sampleContentProvided: facts.offersSample,
            deliveryStatus: facts.delivered ? .delivered : .undeliveredOther,
            consumptionPercentage: facts.consumedMilliunits, refundPreference: preference)
    }
}
