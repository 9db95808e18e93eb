import Foundation
import GatewayHandlerAPI

/// `GET /v1/status`: what the process is doing, for operators (restrict it to local addresses in nginx).
public struct StatusHandler: GatewayHandler {
    public static let name = "status"

    private let status: GatewayStatus

    public init(_ setup: HandlerSetup, needs status: GatewayStatus) {
        self.status = status
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let now = try status.report()
        let report = Report(
            version: now.version,
            uptime_s: now.uptimeSeconds,
            workers: .init(total: now.workersTotal, busy: now.workersBusy),
            requests: .init(
                total: now.requestsByStatus.values.reduce(0, +),
                by_status: Dictionary(uniqueKeysWithValues: now.requestsByStatus.map { (String($0.key), $0.value) })
            ),
            ledger: now.ledgerHealthy.map { $0 ? "ok" : "error" },
            upstream: .init(last_error: now.upstreamLastError),
            events: now.eventEndpoints.map { endpoints in
                endpoints.map {
                    Report.Endpoint(
                        endpoint: $0.endpoint, pending: $0.pending, oldest_pending_s: $0.oldestPendingSeconds,
                        undeliverable: $0.undeliverable)
                }
            }
        )
        return .json(Array(try JSONCoding.encoder.encode(report)), headers: [("Cache-Control", "no-store")])
    }

    private struct Report: Encodable {
        struct Workers: Encodable {
            let total: Int
            let busy: Int
        }
        struct Requests: Encodable {
            let total: Int
            let by_status: [String: Int]
        }
        struct Upstream: Encodable {
            let last_error: String?

            enum CodingKeys: String, CodingKey { case last_error }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(last_error, forKey: .last_error)
            }
        }

        struct Endpoint: Encodable {
            let endpoint: String
            let pending: Int
            let oldest_pending_s: Int
            let undeliverable: Int
        }

        let version: String
        let uptime_s: Int
        let workers: Workers
        let requests: Requests
        /// "ok" or "error"; null when no route of this deployment uses the ledger.
        let ledger: String?
        let upstream: Upstream
        /// Each events endpoint's backlog; left out when no endpoint is configured.
        let events: [Endpoint]?

        enum CodingKeys: String, CodingKey { case version, uptime_s, workers, requests, ledger, upstream, events }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version, forKey: .version)
            try container.encode(uptime_s, forKey: .uptime_s)
            try container.encode(workers, forKey: .workers)
            try container.encode(requests, forKey: .requests)
            try container.encode(ledger, forKey: .ledger)
            try container.encode(upstream, forKey: .upstream)
            try container.encodeIfPresent(events, forKey: .events)
        }
    }
}
