import Foundation
import Synchronization

/// Google's side for the gateway's Google Play backend: the OAuth token endpoint (`POST /token`), which checks
/// the service account's assertion and hands out access tokens, and (next) the Play Developer API, which takes
/// only those tokens. It records what it received (`GET /_sim/google/calls`) and can be told to fail
/// (`POST /_sim/google/steps`).
public final class SimGooglePlay: Sendable {
    private struct State {
        var tokens: [String: Date] = [:]
        var calls: [String: Int] = [:]
        var steps: [SimGoogleStep] = []

        /// The next step for `endpoint`, taken off the list.
        mutating func takeStep(for endpoint: String) -> SimGoogleStep? {
            guard let index = steps.firstIndex(where: { $0.endpoint == endpoint || $0.endpoint == "*" }) else {
                return nil
            }
            return steps.remove(at: index)
        }
    }

    private let login: SimGoogleLoginCheck
    private let tokenLifetime: Int
    private let state = Mutex(State())

    /// - Parameters:
    ///   - login: how assertions are checked.
    ///   - tokenLifetime: the `expires_in` of the access tokens handed out, in seconds.
    public init(login: SimGoogleLoginCheck, tokenLifetime: Int = 3599) {
        self.login = login
        self.tokenLifetime = tokenLifetime
    }

    /// Calls per endpoint (`token`, and the API's), as `GET /_sim/google/calls` shows them.
    public var calls: [String: Int] { state.withLock { $0.calls } }

    /// The answer to one HTTP request, or nil when the path is not Google's.
    public func answer(method: String, path: String, authorization: String?, body: [UInt8])
        -> AppStoreSimulator.Answer?
    {
        switch (method, path) {
        case ("POST", "/token"): return token(body)
        case ("GET", "/_sim/google/calls"):
            let data = (try? JSONSerialization.data(withJSONObject: calls, options: [.sortedKeys])) ?? Data()
            return AppStoreSimulator.Answer(body: Array(data))
        case ("POST", "/_sim/google/steps"):
            guard let steps = try? JSONDecoder().decode([SimGoogleStep].self, from: Data(body)) else {
                return AppStoreSimulator.Answer(status: 400, body: Array("not a list of steps\n".utf8))
            }
            state.withLock { $0.steps += steps }
            return AppStoreSimulator.Answer(status: 201, body: Array("{\"added\":\(steps.count)}".utf8))
        default: return nil
        }
    }

    private func token(_ body: [UInt8]) -> AppStoreSimulator.Answer {
        let step = state.withLock { state in
            state.calls["token", default: 0] += 1
            return state.takeStep(for: "token")
        }
        if let failure = step?.answer { return failure }
        if let refusal = login.refusal(form: body) {
            let parts = refusal.split(separator: ":", maxSplits: 1).map {
                String($0).trimmingCharacters(in: CharacterSet.whitespaces)
            }
            let error = ["error": parts[0], "error_description": parts.count > 1 ? parts[1] : parts[0]]
            return AppStoreSimulator.Answer(
                status: 400, body: Array((try? JSONSerialization.data(withJSONObject: error)) ?? Data()))
        }
        let token = "ya29.sim-" + UUID().uuidString.lowercased()
        state.withLock { $0.tokens[token] = Date().addingTimeInterval(Double(tokenLifetime)) }
        let answer: [String: Any] = ["access_token": token, "expires_in": tokenLifetime, "token_type": "Bearer"]
        var reply = AppStoreSimulator.Answer(
            body: Array((try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])) ?? Data()))
        reply.delayMs = step?.delayMs ?? 0
        return reply
    }
}
