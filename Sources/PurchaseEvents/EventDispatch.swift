import AsyncHTTPClient
import CoreMetrics
import Foundation
import Logging
import PurchaseLedger
import PurchaseVerification
import StoreHTTP
import Synchronization

/// The events of one load: the configured endpoints, made the ones the ledger writes deliveries for, and a
/// sender for each once a serving gateway starts them.
package final class EventDispatch: Sendable {
    package let settings: EventSettings
    private let ledger: any PurchaseLedger
    private let running = Mutex<[EventSender]>([])
    /// Whether the ledger has this load's endpoints yet.
    private let configured = Mutex(false)
    private let client: HTTPClient

    package init(settings: EventSettings, ledger: any PurchaseLedger) {
        self.settings = settings
        self.ledger = ledger
        client = HTTPClient.forStore(callTimeout: settings.timeout, maxConnectionsPerHost: 2)
    }

    deinit { client.shutdown(queue: .global()) { _ in } }

    /// Makes the configured endpoints the ones new events are delivered to, and starts a sender for each. A
    /// serving gateway calls it when the load serves (again for a reload's new load). When the ledger cannot be
    /// written now, each sender's pass tries again until it can.
    package func start(logger: Logger, metricsFactory: any MetricsFactory) {
        do {
            try configureEndpoints()
        } catch {
            logger.error("events: the endpoints could not be set in the ledger yet", metadata: ["reason": "\(error)"])
        }
        running.withLock { senders in
            guard senders.isEmpty else { return }
            senders = settings.endpoints.map { endpoint in
                EventSender(
                    endpoint: endpoint, settings: settings, ledger: ledger, client: client, logger: logger,
                    metricsFactory: metricsFactory,
                    beforeEachPass: { [self] () throws(LedgerError) in
                        try configureEndpoints()
                    })
            }
            senders.forEach { $0.start() }
        }
    }

    /// Sets this load's endpoints in the ledger, once.
    private func configureEndpoints() throws(LedgerError) {
        try configured.withLock { done throws(LedgerError) in
            guard !done else { return }
            try ledger.configureEventEndpoints(settings.endpoints.map(\.subscription), at: Date())
            done = true
        }
    }

    /// Sends again every event written at or after `since` to `endpoint` (every configured one when nil), under
    /// the same ids, including events written before the endpoint took them; returns how many deliveries are
    /// pending now.
    package func replay(since: Date, endpoint: String?) throws(LedgerError) -> Int {
        try configureEndpoints()
        return try ledger.replayEvents(since: since, endpoint: endpoint, at: Date())
    }

    /// Stops the senders after the delivery each is making.
    package func stop() {
        running.withLock { senders in
            senders.forEach { $0.stop() }
            senders = []
        }
    }

    /// Each endpoint's backlog, configured endpoints first (an endpoint no longer configured keeps what it had
    /// not taken).
    package func backlog() throws(LedgerError) -> [EventBacklog] {
        let rows = try ledger.eventBacklog()
        let configured = settings.endpoints.map { endpoint in
            rows.first { $0.endpoint == endpoint.name }
                ?? EventBacklog(endpoint: endpoint.name, pending: 0, oldestPending: nil, expired: 0)
        }
        return configured + rows.filter { row in !settings.endpoints.contains { $0.name == row.endpoint } }
    }
}
