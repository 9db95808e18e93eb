import Foundation
import Synchronization

/// Apple's verifyReceipt, as a stand-in that answers from fixtures: the production host (`/verifyReceipt`)
/// answers 21007 for sandbox receipts, the sandbox host (`/sandbox/verifyReceipt`) 21008 for production
/// ones; a wrong `password` gets 21004; unknown receipts 21003 (or, with `acceptAnyProduct`, a fresh
/// purchase of that product); undecodable ones 21002. Fixture steps add slowness, statuses and failures.
/// Thread-safe: the HTTP server calls it from its event loops.
public final class AppStoreSimulator: Sendable {
    /// What to send back for one request.
    public struct Answer: Sendable, Equatable {
        public var delayMs = 0
        public var status = 200
        public var body: [UInt8] = []
        /// Close the connection instead of answering.
        public var reset = false
        /// Close the connection after half the body, which `Content-Length` announced whole.
        public var truncated = false
        /// More response headers (`Retry-After` on a 429).
        public var headers: [String: String] = [:]
    }

    private struct State {
        /// Each fixture with the time it was added: its relative dates count from then, so answers stay the same.
        var receipts: [String: (fixture: SimReceipt, added: Date)] = [:]
        var calls: [String: [String: Int]] = [:]
    }

    private let state = Mutex(State())
    private let sharedSecret: String?
    private let acceptAnyProduct: String?
    private let acceptAnyDelayMs: Int

    /// - Parameters:
    ///   - sharedSecret: when set, calls whose `password` differs answer 21004.
    ///   - acceptAnyProduct: when set, an unknown receipt is a fresh purchase of this product (benchmarks).
    ///   - acceptAnyDelayMs: how long such answers take (a slow Apple under load).
    public init(
        receipts: [SimReceipt] = [], sharedSecret: String? = nil, acceptAnyProduct: String? = nil,
        acceptAnyDelayMs: Int = 0
    ) {
        self.sharedSecret = sharedSecret
        self.acceptAnyProduct = acceptAnyProduct
        self.acceptAnyDelayMs = acceptAnyDelayMs
        add(receipts)
    }

    /// Adds or replaces fixtures by `receipt`.
    public func add(_ receipts: [SimReceipt]) {
        state.withLock { state in
            for receipt in receipts { state.receipts[receipt.receipt] = (receipt, Date()) }
        }
    }

    /// Calls per receipt and host, as `GET /_sim/calls` shows them. Steps follow the calls to the receipt's
    /// own host; a call to the other host is answered 21007/21008 and counted, nothing more.
    public var calls: [String: [String: Int]] { state.withLock { $0.calls } }

    /// Answers one HTTP request.
    public func answer(method: String, path: String, body: [UInt8]) -> Answer {
        switch (method, path) {
        case ("POST", "/verifyReceipt"): return verify(body, host: "Production")
        case ("POST", "/sandbox/verifyReceipt"): return verify(body, host: "Sandbox")
        case ("POST", "/_sim/receipts"):
            let decoder = JSONDecoder()
            guard
                let list = (try? decoder.decode([SimReceipt].self, from: Data(body)))
                    ?? (try? decoder.decode(SimReceipt.self, from: Data(body))).map({ [$0] })
            else { return Answer(status: 400, body: Array("not a fixture receipt or list of them\n".utf8)) }
            add(list)
            return Answer(status: 201, body: Array("{\"added\":\(list.count)}".utf8))
        case ("GET", "/_sim/calls"):
            let data = (try? JSONSerialization.data(withJSONObject: calls, options: [.sortedKeys])) ?? Data()
            return Answer(body: Array(data))
        case ("POST", "/_sim/reset"):
            state.withLock { $0.calls = [:] }
            return Answer(body: Array("{}".utf8))
        default:
            return Answer(status: 404, body: Array("no such endpoint\n".utf8))
        }
    }

    private func verify(_ body: [UInt8], host: String) -> Answer {
        guard let request = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let receiptData = request["receipt-data"] as? String,
            let bytes = Data(base64Encoded: receiptData)
        else { return status(21002) }
        // Fixtures are named by the receipt's text; receipts that are not text are named by their base64.
        let name = String(data: bytes, encoding: .utf8) ?? receiptData
        guard let (fixture, added) = fixture(named: name) else { return status(21003) }
        let call = state.withLock { state in
            state.calls[name, default: [:]][host, default: 0] += 1
            return state.calls[name]?[host] ?? 1
        }
        guard fixture.environment == host else { return status(host == "Production" ? 21007 : 21008) }
        if let sharedSecret, request["password"] as? String != sharedSecret { return status(21004) }
        let step = fixture.steps.isEmpty ? SimStep() : fixture.steps[min(call, fixture.steps.count) - 1]
        var answer = respond(to: step, fixture: fixture, added: added, receiptData: receiptData)
        answer.delayMs = step.delayMs ?? 0
        answer.truncated = step.truncate ?? false
        return answer
    }

    private func respond(to step: SimStep, fixture: SimReceipt, added: Date, receiptData: String) -> Answer {
        if step.reset == true { return Answer(reset: true) }
        if let code = step.httpStatus { return Answer(status: code, body: Array("Service Unavailable\n".utf8)) }
        if let body = step.body { return Answer(body: Array(body.utf8)) }
        if let code = step.status {
            var fields: [String: Any] = ["status": code, "environment": fixture.environment]
            if let retryable = step.isRetryable {
                fields[step.underscore == true ? "is_retryable" : "is-retryable"] = retryable
            }
            return Answer(body: Array((try? JSONSerialization.data(withJSONObject: fields)) ?? Data()))
        }
        let renderer = AppleAnswerRenderer(fixture: fixture, receiptData: receiptData, epoch: added, now: Date())
        return Answer(body: renderer.render())
    }

    private func fixture(named name: String) -> (SimReceipt, Date)? {
        if let known = state.withLock({ $0.receipts[name] }) { return known }
        guard let acceptAnyProduct else { return nil }
        // A stable id per receipt, so the same unknown receipt is the same purchase every time.
        let digits = String(
            name.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
                % 1_000_000_000_000_000)
        var receipt = SimReceipt(
            receipt: name, transactions: [SimTransaction(productId: acceptAnyProduct, transactionId: digits)])
        if acceptAnyDelayMs > 0 { receipt.steps = [SimStep(delayMs: acceptAnyDelayMs)] }
        return (receipt, Date())
    }

    private func status(_ code: Int) -> Answer { Answer(body: Array("{\"status\":\(code)}".utf8)) }
}
