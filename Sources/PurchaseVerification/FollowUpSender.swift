import CoreMetrics
import Foundation
import Logging
import PurchaseLedger

/// Tells one store what the ledger says it must hear, on a thread of its own: claims the store's due follow-ups
/// one at a time (under a lease, so of several gateways one sends each), lets the store module's
/// ``FollowUpPerformer`` call the store, and settles them, or defers them with backoff while the store cannot
/// take them. Wakes when one is recorded or made due, and every 30 seconds (or the lease, if shorter) for deferred
/// ones and those a gateway that died had claimed.
package final class FollowUpSender: BackgroundWork, Sendable {
    private let performer: any FollowUpPerformer
    private let services: StoreServices
    private let lease: TimeInterval
    private let outcomes: [String: Counter]
    private let backlog: [String: (pending: Gauge, oldestSeconds: Gauge)]
    private let loop: BackgroundLoop

    package init(performer: any FollowUpPerformer, services: StoreServices) {
        self.performer = performer
        self.services = services
        lease = Double(performer.callDeadline.components.seconds) + 5
        let factory = services.metricsFactory
        var outcomes: [String: Counter] = [:]
        var backlog: [String: (pending: Gauge, oldestSeconds: Gauge)] = [:]
        for action in performer.actions {
            let labels = [("store", performer.store), ("action", action)]
            for outcome in ["done", "deferred", "abandoned"] {
                outcomes[action + outcome] = Counter(
                    label: "storegate_store_follow_ups_total", dimensions: labels + [("outcome", outcome)],
                    factory: factory)
            }
            backlog[action] = (
                Gauge(label: "storegate_store_follow_ups_pending", dimensions: labels, factory: factory),
                Gauge(label: "storegate_store_follow_ups_oldest_pending_seconds", dimensions: labels, factory: factory)
            )
        }
        self.outcomes = outcomes
        self.backlog = backlog
        loop = BackgroundLoop(name: "storegate-follow-ups-\(performer.store)", interval: min(30, lease))
    }

    package func start() { loop.start { [self] in sendDue() } }

    /// Looks for due follow-ups now (one was just recorded or made due).
    package func wake() { loop.wake() }

    /// Ends the thread after the follow-up it is sending, if any.
    package func stop() { loop.stop() }

    /// Up to 20 due follow-ups, each claimed only as it is sent, so the lease covers one call's time.
    private func sendDue() {
        do {
            for _ in 0..<20 {
                guard let followUp = try services.followUps.claim(store: performer.store, lease: lease, limit: 1).first
                else { break }
                send(followUp)
            }
            let pending = try services.followUps.backlog(store: performer.store)
            for (action, gauges) in backlog {
                let row = pending.first { $0.action == action }
                gauges.pending.record(row?.pending ?? 0)
                gauges.oldestSeconds.record(row.map { Date().timeIntervalSince($0.oldest) } ?? 0)
            }
        } catch {
            services.logger.warning(
                "\(performer.storeName) follow-ups could not be read", metadata: ["reason": "\(error)"])
        }
    }

    private func send(_ followUp: StoreFollowUp) {
        var logger = services.logger
        logger[metadataKey: "follow_up"] = "\(followUp.action)"
        logger[metadataKey: "original_transaction_id"] = "\(followUp.originalTransactionId)"
        logger[metadataKey: "environment"] = "\(followUp.environment)"
        let name = performer.storeName
        let failure: FollowUpFailure?
        do throws(FollowUpFailure) {
            try performer.perform(followUp, deadline: .now + performer.callDeadline, logger: logger)
            failure = nil
        } catch {
            failure = error
        }
        do {
            switch failure {
            case nil:
                try services.followUps.settle(followUp, state: .done, outcome: "\(name) took it")
                count(followUp, "done")
                logger.info("\(name) follow-up done")
            case let failure? where failure.isFinal:
                let reason = "\(name) refused it: \(failure.reason)"
                try services.followUps.settle(followUp, state: .abandoned, outcome: reason)
                count(followUp, "abandoned")
                logger.warning("\(name) follow-up given up", metadata: ["reason": "\(reason)"])
            case let failure?:
                let pause = BackgroundLoop.pause(
                    after: followUp.attempts + 1, retryAfter: failure.retryAfter.map { Double($0.components.seconds) })
                let reason = "\(name) could not take it: \(failure.reason)"
                try services.followUps.deferFollowUp(
                    followUp, until: Date(timeIntervalSinceNow: pause), outcome: reason)
                count(followUp, "deferred")
                logger.warning(
                    "\(name) follow-up deferred", metadata: ["reason": "\(reason)", "retry_in_s": "\(Int(pause))"])
            }
        } catch {
            // The ledger failed: the claim ends with its lease, and this or another gateway sends it then.
            logger.warning("a \(name) follow-up could not be settled", metadata: ["reason": "\(error)"])
        }
    }

    private func count(_ followUp: StoreFollowUp, _ outcome: String) {
        outcomes[followUp.action + outcome]?.increment()
    }
}
