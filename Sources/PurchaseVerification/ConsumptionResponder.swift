import CoreMetrics
import Foundation
import GatewayCore
import Logging
import PurchaseLedger

/// Answers the ledger's pending consumption requests on a thread of its own: claims the due ones (under a
/// lease, so that of several gateways one answers each), gathers their delivery facts, lets the store's
/// backend answer, and settles them, or defers them with backoff when the store cannot take the answer now.
/// Wakes when a request is recorded, and every `interval` for deferred requests and those a gateway that
/// died had claimed. Holds its service weakly: a reload's old service and its responder go away together.
final class ConsumptionResponder: @unchecked Sendable {
    private weak var service: VerificationService?
    private let runtime: GatewayRuntime
    private let interval: TimeInterval
    private let lease: TimeInterval
    private let outcomes: (answered: Counter, unanswered: Counter, deferred: Counter)
    /// Guards `woken` and `stopped`.
    private let condition = NSCondition()
    private var woken = false
    private var stopped = false

    init(service: VerificationService, runtime: GatewayRuntime, interval: TimeInterval = 30, lease: TimeInterval = 120)
    {
        self.service = service
        self.runtime = runtime
        self.interval = interval
        self.lease = lease
        let label = "storegate_consumption_requests_total"
        let counter = { (outcome: String) in
            Counter(label: label, dimensions: [("outcome", outcome)], factory: runtime.metrics.factory)
        }
        outcomes = (counter("answered"), counter("unanswered"), counter("deferred"))
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "storegate-consumption"
        thread.start()
    }

    /// Looks for due requests now (one was just recorded).
    func wake() { signal { $0.woken = true } }

    /// Ends the thread after the request it is answering, if any.
    func stop() { signal { $0.stopped = true } }

    private func signal(_ change: (ConsumptionResponder) -> Void) {
        condition.lock()
        change(self)
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while true {
            if let service { answerDue(service) } else { return }
            condition.lock()
            if !woken, !stopped { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
            woken = false
            let done = stopped
            condition.unlock()
            if done { return }
        }
    }

    private func answerDue(_ service: VerificationService) {
        let claimed: [ConsumptionRequest]
        do {
            claimed = try service.ledger.claimConsumptionRequests(now: Date(), lease: lease, limit: 20)
        } catch {
            runtime.logger.warning("consumption requests could not be read", metadata: ["reason": "\(error)"])
            return
        }
        for request in claimed { answer(request, service: service) }
    }

    private func answer(_ request: ConsumptionRequest, service: VerificationService) {
        var logger = runtime.logger
        logger[metadataKey: "notification_uuid"] = "\(request.notificationUUID)"
        logger[metadataKey: "transaction_id"] = "\(request.transactionId)"
        logger[metadataKey: "environment"] = "\(request.environment)"
        let context = RequestContext(
            requestId: runtime.requestIds.next(), deadline: .now + .seconds(60), logger: logger)
        do {
            let facts = try service.deliveryFacts(for: request)
            var reply: ConsumptionReply?
            for backend in service.backends where reply == nil {
                reply = try backend.answer(request, facts: facts, context: context)
            }
            let factsMetadata: Logger.Metadata = [
                "product_id": "\(facts.productId)", "grants": "\(facts.grants.count)",
                "delivered": "\(facts.delivered)",
            ]
            switch reply ?? .unanswered(reason: "no store backend answers it") {
            case .answered(let answer, let outcome):
                _ = try service.ledger.settleConsumptionRequest(
                    request.notificationUUID, state: .answered, answer: answer, outcome: outcome, at: Date())
                outcomes.answered.increment()
                logger.info(
                    "consumption request answered",
                    metadata: factsMetadata.merging(["answer": "\(answer)", "outcome": "\(outcome)"]) { $1 })
            case .unanswered(let reason):
                _ = try service.ledger.settleConsumptionRequest(
                    request.notificationUUID, state: .unanswered, answer: nil, outcome: reason, at: Date())
                outcomes.unanswered.increment()
                logger.info(
                    "consumption request not answered", metadata: factsMetadata.merging(["reason": "\(reason)"]) { $1 })
            }
        } catch {
            let pause = Self.pause(after: request.attempts + 1, asked: error)
            try? service.ledger.deferConsumptionRequest(
                request.notificationUUID, until: Date(timeIntervalSinceNow: pause), outcome: "\(error)")
            outcomes.deferred.increment()
            logger.warning(
                "consumption request deferred", metadata: ["reason": "\(error)", "retry_in_s": "\(Int(pause))"])
        }
    }

    /// A minute after the first failure, doubling to an hour at most; longer when the store said so.
    static func pause(after attempts: Int, asked error: any Error) -> TimeInterval {
        let backoff = min(60 * pow(2, Double(min(attempts, 10) - 1)), 3_600)
        let retryAfter = (error as? GatewayError)?.headers.first { $0.name == "Retry-After" }.flatMap {
            TimeInterval($0.value)
        }
        return max(backoff, retryAfter ?? 0)
    }
}
