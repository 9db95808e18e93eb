import CoreMetrics
import Foundation
import GatewayHandlerAPI
import GooglePlayAPI
import Logging
import PurchaseLedger
import PurchaseVerification

/// Tells Google what the ledger says it must hear (Google refunds a purchase not acknowledged within three days,
/// and sells a consumable again only once it is consumed), on a thread of its own: claims the due follow-ups
/// (under a lease, so of several gateways one sends each), calls the Play Developer API, and settles them, or
/// defers them with backoff while Google cannot take them. Wakes when one is recorded or made due, and every
/// `interval` for deferred ones and those a gateway that died had claimed.
final class GoogleFollowUps: BackgroundWork, Sendable {
    /// What a follow-up asks Google to do, in the words the support timeline shows.
    enum Action: String, CaseIterable {
        case acknowledge
        case acknowledgeSubscription = "acknowledge subscription"
        case consume
    }

    private let client: GooglePlayClient
    private let services: StoreServices
    private let lease: TimeInterval
    private let callDeadline: Duration
    private let outcomes: [String: Counter]
    private let backlog: [Action: (pending: Gauge, oldestSeconds: Gauge)]
    private let loop: BackgroundLoop

    /// `api`'s timeouts set the lease: a claim outlives a login and a call with all their attempts, so no
    /// other gateway sends what this one still may.
    init(client: GooglePlayClient, api: GoogleAPISettings, services: StoreServices) {
        self.client = client
        self.services = services
        callDeadline = api.backgroundCallDeadline
        lease = Double(callDeadline.components.seconds) + 5
        let factory = services.metricsFactory
        var outcomes: [String: Counter] = [:]
        var backlog: [Action: (pending: Gauge, oldestSeconds: Gauge)] = [:]
        for action in Action.allCases {
            let labels = [("store", GooglePlayIds.store), ("action", action.rawValue)]
            for outcome in ["done", "deferred", "abandoned"] {
                outcomes[action.rawValue + outcome] = Counter(
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
        loop = BackgroundLoop(name: "storegate-google-follow-ups", interval: min(30, lease))
    }

    func start() { loop.start { [self] in sendDue() } }
    func wake() { loop.wake() }
    func stop() { loop.stop() }

    private func sendDue() {
        do {
            for followUp in try services.followUps.claim(store: GooglePlayIds.store, lease: lease, limit: 20) {
                send(followUp)
            }
            let pending = try services.followUps.backlog(store: GooglePlayIds.store)
            for (action, gauges) in backlog {
                let row = pending.first { $0.action == action.rawValue }
                gauges.pending.record(row?.pending ?? 0)
                gauges.oldestSeconds.record(row.map { Date().timeIntervalSince($0.oldest) } ?? 0)
            }
        } catch {
            services.logger.warning("Google Play follow-ups could not be read", metadata: ["reason": "\(error)"])
        }
    }

    private func send(_ followUp: StoreFollowUp) {
        var logger = services.logger
        logger[metadataKey: "follow_up"] = "\(followUp.action)"
        logger[metadataKey: "original_transaction_id"] = "\(followUp.originalTransactionId)"
        logger[metadataKey: "environment"] = "\(followUp.environment)"
        let deadline = ContinuousClock.now + callDeadline
        let sent: Result<Void, GooglePlayFailure>
        do throws(GooglePlayFailure) {
            sent = .success(try call(followUp, deadline: deadline, logger: logger))
        } catch {
            sent = .failure(error)
        }
        do {
            switch sent {
            case .success:
                try services.followUps.settle(followUp, state: .done, outcome: "Google took it")
                count(followUp, "done")
                logger.info("Google Play follow-up done")
            case .failure(let failure) where [.notFound, .gone, .rejected].contains(failure.kind):
                let reason = "Google refused it: \(failure.reason)"
                try services.followUps.settle(followUp, state: .abandoned, outcome: reason)
                count(followUp, "abandoned")
                logger.warning("Google Play follow-up given up", metadata: ["reason": "\(reason)"])
            case .failure(let failure):
                let pause = BackgroundLoop.pause(after: followUp.attempts + 1, asked: GatewayError.google(failure))
                let reason = "Google could not take it: \(failure.reason)"
                try services.followUps.deferFollowUp(
                    followUp, until: Date(timeIntervalSinceNow: pause), outcome: reason)
                count(followUp, "deferred")
                logger.warning(
                    "Google Play follow-up deferred", metadata: ["reason": "\(reason)", "retry_in_s": "\(Int(pause))"])
            }
        } catch {
            // The ledger failed: the claim ends with its lease, and this or another gateway sends it then.
            logger.warning("a Google Play follow-up could not be settled", metadata: ["reason": "\(error)"])
        }
    }

    private func call(_ followUp: StoreFollowUp, deadline: ContinuousClock.Instant, logger: Logger)
        throws(GooglePlayFailure)
    {
        let (app, product, token) = (followUp.app, followUp.storeProductId, followUp.subject)
        switch Action(rawValue: followUp.action) {
        case .acknowledge, .acknowledgeSubscription:
            try client.acknowledge(
                packageName: app, productId: product, token: token,
                subscription: followUp.action == Action.acknowledgeSubscription.rawValue, deadline: deadline,
                logger: logger)
        case .consume:
            try client.consume(packageName: app, productId: product, token: token, deadline: deadline, logger: logger)
        case nil:
            throw GooglePlayFailure(.rejected, "this gateway does not know the follow-up \(followUp.action)")
        }
    }

    private func count(_ followUp: StoreFollowUp, _ outcome: String) {
        outcomes[followUp.action + outcome]?.increment()
    }
}
