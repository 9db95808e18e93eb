import Foundation
import Synchronization

/// The App Store Server API, as a stand-in: checks each call's JWT (401 otherwise), answers the endpoints
/// the gateway uses from its transactions with JWS signed by a test chain, pages long histories, plays
/// scripted failures (429 + Retry-After, 5xx, slow, garbage, forged signatures) and records every call,
/// bodies included, for tests to assert. Production answers at `/inApps/...`, the sandbox at
/// `/sandbox/inApps/...`; `/_sim/api/...` controls it. Thread-safe.
public final class SimServerAPI: Sendable {
    /// One call as received.
    public struct Call: Codable, Sendable, Equatable {
        public var method: String
        public var path: String
        public var body: String
        public var authorized: Bool
    }

    struct State {
        var transactions: [SimAPITransaction] = []
        var notifications: [SimAPINotification] = []
        var steps: [SimAPIStep] = []
        var calls: [Call] = []
    }

    let state = Mutex(State())
    let check: SimJWTCheck
    let signer: SimSigner
    /// Transactions per history page, small so that tests see paging.
    let pageSize: Int
    /// When set, an unknown production transaction id is a fresh purchase of this product, its customer's
    /// only one (benchmarks).
    let acceptAnyProduct: String?
    /// When the stand-in started: relative fixture dates count from it, so answers stay the same.
    let epoch = Date()
    /// The app's Apple ID, which Apple's Production notifications carry in `data.appAppleId`.
    let appAppleId: Int64?

    public init(
        check: SimJWTCheck, signer: SimSigner, transactions: [SimAPITransaction] = [], pageSize: Int = 20,
        acceptAnyProduct: String? = nil, appAppleId: Int64? = nil
    ) {
        self.appAppleId = appAppleId
        self.check = check
        self.signer = signer
        self.pageSize = max(pageSize, 1)
        self.acceptAnyProduct = acceptAnyProduct
        state.withLock { $0.transactions = transactions }
    }

    /// Adds transactions, replacing any with the same id and environment.
    public func add(_ transactions: [SimAPITransaction]) {
        state.withLock { state in
            for transaction in transactions {
                state.transactions.removeAll {
                    $0.transactionId == transaction.transactionId && $0.environment == transaction.environment
                }
                state.transactions.append(transaction)
            }
        }
    }

    /// Adds notifications to the history.
    public func add(_ notifications: [SimAPINotification]) {
        state.withLock { $0.notifications += notifications }
    }

    /// Queues failures, each played once by the next matching call.
    public func play(_ steps: [SimAPIStep]) {
        state.withLock { $0.steps += steps }
    }

    /// Every call to the API so far, oldest first.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// Answers `path` if it belongs to the Server API or its controls; nil otherwise.
    public func answer(method: String, path: String, authorization: String?, body: [UInt8]) -> AppStoreSimulator.Answer?
    {
        if path.hasPrefix("/_sim/api/") { return control(method: method, path: path, body: body) }
        let sandbox = path.hasPrefix("/sandbox/inApps/")
        guard sandbox || path.hasPrefix("/inApps/") else { return nil }
        let refusal = check.refusal(authorization)
        state.withLock {
            $0.calls.append(
                Call(
                    method: method, path: path, body: String(decoding: body, as: UTF8.self), authorized: refusal == nil)
            )
        }
        guard refusal == nil else {
            return AppStoreSimulator.Answer(status: 401, body: Array("Unauthenticated\n\nRequest ID: SIM.0.0\n".utf8))
        }
        let route = SimAPIRoute(method: method, path: path.dropFirst(sandbox ? "/sandbox".count : 0))
        guard let route else { return error(404, 4_040_000, "No such endpoint.") }
        return answer(route, environment: sandbox ? "Sandbox" : "Production", body: body)
    }

    func error(_ status: Int, _ code: Int, _ message: String) -> AppStoreSimulator.Answer {
        AppStoreSimulator.Answer(status: status, body: Self.json(["errorCode": code, "errorMessage": message]))
    }

    static func json(_ object: Any) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    private func control(method: String, path: String, body: [UInt8]) -> AppStoreSimulator.Answer {
        let decoder = JSONDecoder()
        switch (method, path) {
        case ("POST", "/_sim/api/transactions"):
            guard let list = try? decoder.decode([SimAPITransaction].self, from: Data(body)) else { break }
            add(list)
            return AppStoreSimulator.Answer(status: 201, body: Self.json(["added": list.count]))
        case ("POST", "/_sim/api/notifications"):
            guard let list = try? decoder.decode([SimAPINotification].self, from: Data(body)) else { break }
            add(list)
            return AppStoreSimulator.Answer(status: 201, body: Self.json(["added": list.count]))
        case ("POST", "/_sim/api/steps"):
            guard let list = try? decoder.decode([SimAPIStep].self, from: Data(body)) else { break }
            play(list)
            return AppStoreSimulator.Answer(status: 201, body: Self.json(["queued": list.count]))
        case ("GET", "/_sim/api/calls"):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return AppStoreSimulator.Answer(body: Array((try? encoder.encode(calls)) ?? Data()))
        default:
            return AppStoreSimulator.Answer(status: 404, body: Array("no such control\n".utf8))
        }
        return AppStoreSimulator.Answer(status: 400, body: Array("not a list of fixtures for \(path)\n".utf8))
    }
}
