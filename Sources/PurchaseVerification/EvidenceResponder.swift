import CoreMetrics
import Foundation
import GatewayHandlerAPI
import Logging
import PurchaseLedger

/// Answers one store's requests for delivery evidence (a customer asked for a refund, the store asks what was
/// delivered: the App Store's consumption requests, Google Play's refund reviews) on a thread of its own: claims
/// the store's due ones from the ledger's delivery evidence (under a lease, so that of several gateways one
/// answers each), gathers their delivery facts, lets the store module's ``EvidenceAnswerer`` answer, and settles
/// them, or defers them with backoff when the store cannot take the answer now. Wakes when a request is
/// recorded, and every `interval` for deferred requests and those a gateway that died had claimed.
package final class EvidenceResponder: BackgroundWork, Sendable {
    private let answerer: any EvidenceAnswerer
    private let services: StoreServices
    private let lease: TimeInterval
    private let outcomes: (answered: Counter, unanswered: Counter, deferred: Counter)
    private let loop: BackgroundLoop

    /// `lease` outlives an answer with all its attempts, so no other gateway sends what this one still may.
    package init(
        answerer: any EvidenceAnswerer, services: StoreServices, interval: TimeInterval = 30, lease: TimeInterval = 120
    ) {
        self.answerer = answerer
        self.services = services
        self.lease = lease
        let label = "storegate_consumption_requests_total"
        let counter = { (outcome: String) in
            Counter(
                label: label, dimensions: [("store", answerer.store), ("outcome", outcome)],
                factory: services.metricsFactory)
        }
        outcomes = (counter("answered"), counter("unanswered"), counter("deferred"))
        loop = BackgroundLoop(name: "storegate-evidence-\(answerer.store)", interval: interval)
    }

    package func start() { loop.start { [self] in answerDue() } }

    /// Looks for due requests now (one was just recorded).
    package func wake() { loop.wake() }

    /// Ends the thread after the request it is answering, if any.
    package func stop() { loop.stop() }

    /// Up to 20 due requests, each claimed only as it is answered, so the lease covers one answer's time.
    private func answerDue() {
        for _ in 0..<20 {
            let claimed: ConsumptionRequest?
            do {
                claimed = try services.evidence.claimRequests(store: answerer.store, lease: lease, limit: 1).first
            } catch {
                services.logger.warning("consumption requests could not be read", metadata: ["reason": "\(error)"])
                return
            }
            guard let claimed else { return }
            answer(claimed)
        }
    }

    private func answer(_ request: ConsumptionRequest) {
        var logger = services.logger
        logger[metadataKey: "store"] = "\(request.store)"
        logger[metadataKey: "notification_uuid"] = "\(request.notificationUUID)"
        logger[metadataKey: "transaction_id"] = "\(request.transactionId)"
        logger[metadataKey: "environment"] = "\(request.environment)"
        let context = RequestContext(requestId: services.nextRequestId(), deadline: .now + .seconds(60), logger: logger)
        do {
            let facts = try services.evidence.facts(for: request)
            let factsMetadata: Logger.Metadata = [
                "product_id": "\(facts.productId)", "grants": "\(facts.grants.count)",
                "delivered": "\(facts.delivered)",
            ]
            switch try answerer.answer(request, facts: facts, context: context)
                ?? .unanswered(reason: "no store backend answers it")
            {
            case .answered(let answer, let outcome):
                try services.evidence.settle(request, state: .answered, answer: answer, outcome: outcome)
                outcomes.answered.increment()
                logger.info(
                    "consumption request answered",
                    metadata: factsMetadata.merging(["answer": "\(answer)", "outcome": "\(outcome)"]) { $1 })
            case .unanswered(let reason):
                try services.evidence.settle(request, state: .unanswered, answer: nil, outcome: reason)
                outcomes.unanswered.increment()
                logger.info(
                    "consumption request not answered", metadata: factsMetadata.merging(["reason": "\(reason)"]) { $1 })
            }
        } catch {
            let pause = BackgroundLoop.pause(after: request.attempts + 1, asked: error)
            try? services.evidence.deferRequest(request, until: Date(timeIntervalSinceNow: pause), outcome: "\(error)")
            outcomes.deferred.increment()
            logger.warning(
                "consumption request deferred", metadata: ["reason": "\(error)", "retry_in_s": "\(Int(pause))"])
        }
    }
}
