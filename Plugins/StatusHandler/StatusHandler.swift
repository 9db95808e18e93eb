import Foundation
import GatewayCore
import PurchaseVerification

/// `GET /v1/status`: what the process is doing, for operators (restrict it to local addresses in nginx).
public struct StatusHandler: GatewayHandler {
    public static let name = "status"

    private let stats: GatewayStats
    /// Read at request time: the verification service (and its ledger) belongs to other routes of this load.
    private let settings: HandlerSettings

    public init(settings: HandlerSettings) throws {
        stats = settings.stats
        self.settings = settings
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let byStatus = stats.requestsByStatus
        let service = settings.builtVerificationService
        let report = Report(
            version: StoreGateVersion.current,
            uptime_s: Int(stats.startedAt.duration(to: .now).components.seconds),
            workers: .init(total: stats.workersTotal, busy: stats.workersBusy),
            requests: .init(
                total: byStatus.values.reduce(0, +),
                by_status: Dictionary(uniqueKeysWithValues: byStatus.map { (String($0.key), $0.value) })
            ),
            ledger: service.map { $0.ledgerIsHealthy ? "ok" : "error" },
            upstream: .init(last_error: service?.lastUpstreamError)
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

        let version: String
        let uptime_s: Int
        let workers: Workers
        let requests: Requests
        /// "ok" or "error"; null when no route of this deployment uses the ledger.
        let ledger: String?
        let upstream: Upstream

        enum CodingKeys: String, CodingKey { case version, uptime_s, workers, requests, ledger, upstream }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version, forKey: .version)
            try container.encode(uptime_s, forKey: .uptime_s)
            try container.encode(workers, forKey: .workers)
            try container.encode(requests, forKey: .requests)
            try container.encode(ledger, forKey: .ledger)
            try container.encode(upstream, forKey: .upstream)
        }
    }
}
