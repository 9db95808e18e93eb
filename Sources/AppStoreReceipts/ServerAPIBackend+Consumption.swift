import AppStoreServerAPI
import Foundation
import GatewayHandlerAPI
import PurchaseLedger
import PurchaseVerification

extension ServerAPIBackend: EvidenceAnswerer {
    /// Apple's ids are the ledger's unqualified ones.
    var store: String { AppStoreVerification.store }

    /// With `refund_requests` (or `apple.consumption`), a serving gateway answers Apple's consumption requests on
    /// a thread of its own; with `finish_transactions`, it finishes transactions on another.
    func startBackgroundWork(_ services: StoreServices) -> [any BackgroundWork] {
        var works: [any BackgroundWork] = []
        if consumption != nil {
            let responder = EvidenceResponder(answerer: self, services: services)
            responder.start()
            works.append(responder)
        }
        if settings.finishes != nil {
            let finishes = FollowUpSender(performer: AppleFinishes(client: client), services: services)
            finishes.start()
            works.append(finishes)
        }
        return works
    }

    /// Send Consumption Information for an App Store request, within Apple's 12-hour window and only with the
    /// customers' consent; Apple's refusal (4xx) settles it unanswered, its trouble defers it.
    func answer(_ request: ConsumptionRequest, facts: DeliveryFacts, context: RequestContext) throws
        -> ConsumptionReply?
    {
        guard let consumption, let environment = ServerAPIEnvironment(rawValue: request.environment) else {
            return nil
        }
        guard Date() < request.requestedAt + Self.consumptionWindow else {
            return .unanswered(reason: "Apple's 12-hour answer window had passed")
        }
        guard consumption.customerConsented else {
            return .unanswered(reason: "customers did not consent (customer_consented); Apple forbids answering")
        }
        let information = Self.information(for: facts, under: consumption)
        do {
            try client.sendConsumption(
                information, for: request.transactionId, environment: environment, deadline: context.deadline,
                logger: context.logger)
        } catch {
            if error.isRejected || error.isNotFound { return .unanswered(reason: "Apple refused the answer: \(error)") }
            throw error.gatewayError(logger: context.logger)
        }
        return .answered(answer: String(decoding: information.json, as: UTF8.self), outcome: "accepted by Apple (202)")
    }

    /// Apple takes answers within 12 hours of its request.
    static let consumptionWindow: TimeInterval = 12 * 3_600

    /// The answer for a purchase with `facts`, in Apple's words: undelivered because of a server outage when
    /// every download of it failed on our side, and no consumption percentage for an auto-renewable
    /// subscription (Apple measures its share by time, and refuses one).
    static func information(for facts: DeliveryFacts, under policy: RefundRequestPolicy) -> ServerAPIConsumption {
        let preference: ServerAPIConsumption.RefundPreference? =
            switch policy.lean(for: facts) {
            case .decline: .decline
            case .grant: .grantFull
            case .grantProrated: .grantProrated
            case nil: nil
            }
        let status: ServerAPIConsumption.DeliveryStatus =
            facts.delivered ? .delivered : facts.undeliveredByOutage ? .undeliveredServerOutage : .undeliveredOther
        return ServerAPIConsumption(
            customerConsented: policy.customerConsented, sampleContentProvided: facts.offersSample,
            deliveryStatus: status,
            consumptionPercentage: facts.kind == .autoRenewable ? nil : facts.consumedMilliunits,
            refundPreference: preference)
    }
}
