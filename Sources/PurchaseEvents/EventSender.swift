import AsyncHTTPClient
import CoreMetrics
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PurchaseLedger
import PurchaseVerification

/// Delivers one endpoint's events, on a thread of its own: claims the endpoint's oldest due delivery (under a
/// lease, so of several gateways sharing a ledger one sends it; and only the oldest pending event of each
/// purchase, so a purchase's events arrive in order), POSTs it signed, and settles it when the receiver answers
/// 2xx. Otherwise it is tried again with backoff until the retry window has passed, then kept as undeliverable.
/// Looks for due events every `poll_ms` (they are written by every gateway's requests, not only this one's).
final class EventSender: BackgroundWork, Sendable {
    private let endpoint: EventEndpoint
    private let settings: EventSettings
    private let ledger: any PurchaseLedger
    private let client: HTTPClient
    private let logger: Logger
    private let lease: TimeInterval
    private let loop: BackgroundLoop
    private let delivered: Counter
    private let failed: Counter
    private let expired: Counter
    private let backlog: (pending: Gauge, oldestSeconds: Gauge, undeliverable: Gauge)
    private let beforeEachPass: @Sendable () throws(LedgerError) -> Void

    init(
        endpoint: EventEndpoint, settings: EventSettings, ledger: any PurchaseLedger, client: HTTPClient,
        logger: Logger, metricsFactory: any MetricsFactory,
        beforeEachPass: @escaping @Sendable () throws(LedgerError) -> Void
    ) {
        self.beforeEachPass = beforeEachPass
        self.endpoint = endpoint
        self.settings = settings
        self.ledger = ledger
        self.client = client
        var logger = logger
        logger[metadataKey: "endpoint"] = "\(endpoint.name)"
        self.logger = logger
        lease = Double(settings.timeout.components.seconds) * Double(Self.batch) + 5
        let labels = [("endpoint", endpoint.name)]
        func outcome(_ name: String) -> Counter {
            Counter(label: "storegate_events_total", dimensions: labels + [("outcome", name)], factory: metricsFactory)
        }
        delivered = outcome("delivered")
        failed = outcome("failed")
        expired = outcome("expired")
        backlog = (
            Gauge(label: "storegate_events_pending", dimensions: labels, factory: metricsFactory),
            Gauge(label: "storegate_events_oldest_pending_seconds", dimensions: labels, factory: metricsFactory),
            Gauge(label: "storegate_events_undeliverable", dimensions: labels, factory: metricsFactory)
        )
        loop = BackgroundLoop(name: "storegate-events-\(endpoint.name)", interval: settings.pollInterval)
    }

    func start() { loop.start { [self] in sendDue() } }

    func wake() { loop.wake() }

    func stop() { loop.stop() }

    /// Deliveries claimed at once: a claim is a ledger write, and events come as fast as downloads. The lease
    /// covers each of them taking the whole timeout.
    private static let batch = 8

    /// Up to about 100 due events, a batch at a time, in order; a purchase whose event failed has its later ones
    /// in the batch given back untried, and a receiver that is down (no answer, 408, 429, 5xx) ends the pass,
    /// the rest given back, so it gets one attempt per pass until it is back. Then the backlog's gauges.
    private func sendDue() {
        do {
            try beforeEachPass()
            var sent = 0
            var receiverDown = false
            while sent < 100, !receiverDown {
                let claims = try ledger.claimEventDeliveries(
                    endpoint: endpoint.name, now: Date(), lease: lease, limit: Self.batch)
                if claims.isEmpty { break }
                var held: Set<[String]> = []
                for claim in claims {
                    let purchase = [claim.event.environment, claim.event.originalTransactionId]
                    if receiverDown || held.contains(purchase) {
                        try ledger.releaseEventDelivery(claim)
                        continue
                    }
                    switch send(claim) {
                    case .delivered: break
                    case .refused: held.insert(purchase)
                    case .receiverDown: receiverDown = true
                    }
                }
                sent += claims.count
            }
            if sent >= 100, !receiverDown { loop.wake() }
            let row = try ledger.eventBacklog().first { $0.endpoint == endpoint.name }
            backlog.pending.record(row?.pending ?? 0)
            backlog.oldestSeconds.record(row?.oldestPending.map { max(0, Date().timeIntervalSince($0)) } ?? 0)
            backlog.undeliverable.record(row?.expired ?? 0)
        } catch {
            logger.warning("events could not be read from the ledger", metadata: ["reason": "\(error)"])
        }
    }

    /// How one attempt went.
    private enum Attempt {
        /// Acknowledged, and recorded so.
        case delivered
        /// Not acknowledged (or not recorded): this event's purchase waits.
        case refused
        /// Not acknowledged because the receiver is not taking any.
        case receiverDown
    }

    /// Sends one event and records how it went.
    private func send(_ claim: EventDeliveryClaim) -> Attempt {
        var logger = logger
        logger[metadataKey: "event_id"] = "\(claim.event.id)"
        logger[metadataKey: "event_type"] = "\(claim.event.type)"
        let failure = post(claim.event)
        do {
            guard let failure else {
                try ledger.settleEventDelivery(claim, as: .delivered, outcome: "delivered", at: Date())
                delivered.increment()
                logger.debug("event delivered")
                return .delivered
            }
            failed.increment()
            let attempts = claim.attempts + 1
            if Date() >= claim.event.at + settings.retryWindow {
                let outcome = "given up after \(attempts) attempts: \(failure.reason)"
                try ledger.settleEventDelivery(claim, as: .expired, outcome: outcome, at: Date())
                expired.increment()
                logger.error("an event could not be delivered in time and is kept", metadata: ["reason": "\(outcome)"])
            } else {
                let pause = settings.pause(after: attempts, retryAfter: failure.retryAfter)
                try ledger.deferEventDelivery(claim, until: Date() + pause, outcome: failure.reason)
                logger.warning(
                    "event not delivered; it will be tried again",
                    metadata: ["reason": "\(failure.reason)", "retry_in_s": "\(Int(pause))"])
            }
        } catch {
            // The ledger failed: the claim ends with its lease, and this or another gateway sends it again then.
            logger.warning("an event's delivery could not be recorded", metadata: ["reason": "\(error)"])
        }
        return failure?.receiverDown == true ? .receiverDown : .refused
    }

    /// POSTs `event`; nil when the receiver acknowledged it, else why not, when it asked to be called again, and
    /// whether it takes no event now.
    private func post(_ event: LedgerEvent) -> (reason: String, retryAfter: TimeInterval?, receiverDown: Bool)? {
        let body = EventPayload(event).body
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(
                url: endpoint.url, method: .POST,
                headers: [
                    "Content-Type": "application/json", "User-Agent": "StoreGate-Events/1",
                    "StoreGate-Event-Id": event.id,
                    EventSignature.header: endpoint.signature.value(for: body, at: Date()),
                ],
                body: .byteBuffer(ByteBuffer(bytes: body)))
        } catch {
            return ("the endpoint's URL cannot be used: \(error)", nil, true)
        }
        switch ReceiverAnswer.status(of: request, on: client, within: settings.timeout) {
        case .answered(let status, _) where (200..<300).contains(status):
            return nil
        case .answered(let status, let retryAfter):
            return (
                "the receiver answered HTTP \(status)", retryAfter.flatMap(TimeInterval.init),
                status >= 500 || status == 408 || status == 429
            )
        case .timedOut:
            return ("the receiver did not answer within \(settings.timeout.components.seconds) s", nil, true)
        case .failed(let reason):
            return ("the receiver could not be reached: \(reason)", nil, true)
        }
    }
}
