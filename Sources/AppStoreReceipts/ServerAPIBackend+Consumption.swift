import AppStoreServerAPI
import Foundation
import GatewayHandlerAPI
import PurchaseLedger
import PurchaseVerification

extension ServerAPIBackend {
    /// With `apple.consumption`, a serving gateway answers Apple's consumption requests on a thread of its own.
    func startBackgroundWork(_ services: StoreServices) -> (any BackgroundWork)? {
        guard consumption != nil else { return nil }
        let responder = ConsumptionResponder(backend: self, services: services)
        responder.start()
        return responder
    }

    /// Send Consumption Information for an App Store request, within Apple's 12-hour window and only with the
    /// customers' consent; Apple's refusal (4xx) settles it unanswered, its trouble defers it.
    func answer(_ request: ConsumptionRequest, facts: DeliveryFacts, context: RequestContext) throws
        -> ConsumptionReply?
    {
        guard let consumption, let environment = ServerAPIEnvironment(rawValue: request.environment) else {
            return nil
        }
        guard Date() < request.requestedAt + ConsumptionPolicy.window else {
            return .unanswered(reason: "Apple's 12-hour answer window had passed")
        }
        guard consumption.customerConsented else {
            return .unanswered(
                reason: "customers did not consent (apple.consumption.customer_consented); Apple forbids answering")
        }
        let information = consumption.information(for: facts)
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
}
