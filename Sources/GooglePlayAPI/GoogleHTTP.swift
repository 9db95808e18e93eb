import AsyncHTTPClient
import Foundation
import GatewayConcurrency
import Logging
import NIOCore
import NIOHTTP1
import StoreHTTP

/// Calls to Google's hosts from the gateway's worker threads: each blocks its worker until Google answers or
/// the deadline. Google's trouble (429, 5xx, timeouts, resets) is tried again with backoff while attempts and
/// the deadline allow; what a call's answer means is the caller's to say.
final class GoogleHTTP: Sendable {
    /// What one answer means to the caller.
    enum Verdict {
        case success([UInt8])
        case failure(GooglePlayFailure)
    }

    /// Google's answers are a few KiB; this bounds what a lying upstream can make the gateway hold.
    static let maxAnswerBytes = 1 << 20

    private let client: HTTPClient
    private let callTimeout: Duration
    private let maxAttempts: Int
    let metrics: GooglePlayMetrics

    init(callTimeout: Duration, maxAttempts: Int, metrics: GooglePlayMetrics) {
        client = .forStore(callTimeout: callTimeout)
        self.callTimeout = callTimeout
        self.maxAttempts = maxAttempts
        self.metrics = metrics
    }

    deinit {
        client.shutdown(queue: .global()) { _ in }
    }

    /// Sends the request `make` builds (afresh for each attempt, so it can carry a fresh token) to `endpoint`
    /// (a metrics label; `what` names it in words) and returns what `meaning` makes of the first answer that is
    /// not Google's trouble; `unavailable` when none came before the deadline or the last attempt,
    /// `rateLimited` when Google's 429 asks to wait past them.
    func send(
        _ endpoint: String, what: String, deadline: ContinuousClock.Instant, logger: Logger,
        make: () throws(GooglePlayFailure) -> HTTPClient.Request,
        meaning: (_ status: Int, _ body: [UInt8]) -> Verdict
    ) throws(GooglePlayFailure) -> [UInt8] {
        var attempt = 0
        while true {
            attempt += 1
            let trouble: String
            var wait: Duration?
            let request = try make()
            let started = ContinuousClock.now
            let exchanged = exchange(request, deadline: deadline)
            metrics.time(endpoint, since: started)
            if case .answered(let status, _, _) = exchanged {
                metrics.count(endpoint, .init(status: status))
            } else {
                metrics.count(endpoint, .unreachable)
            }
            switch exchanged {
            case .answered(let status, let retryAfter, _) where status == 429 || status >= 500:
                trouble = "\(what) answered \(status)"
                if status == 429 { wait = retryAfter.flatMap(Int.init).map { .seconds($0) } ?? .seconds(1) }
            case .answered(let status, _, let body):
                switch meaning(status, body) {
                case .success(let bytes): return bytes
                case .failure(let failure): throw failure
                }
            case .timedOut: trouble = "no answer in time from \(what)"
            case .tooLarge: trouble = "an answer over \(Self.maxAnswerBytes) bytes from \(what)"
            case .failed(let reason): trouble = "\(reason) calling \(what)"
            }
            let pause = max(wait ?? .zero, RetryBackoff.pause(afterAttempt: attempt))
            guard attempt < maxAttempts, ContinuousClock.now + pause + .milliseconds(50) < deadline else {
                logger.warning(
                    "Google gave no answer",
                    metadata: ["endpoint": "\(endpoint)", "reason": "\(trouble)", "attempts": "\(attempt)"])
                if let wait { throw GooglePlayFailure(.rateLimited, trouble, retryAfter: wait) }
                throw GooglePlayFailure(.unavailable, trouble, retryAfter: .seconds(5))
            }
            logger.info(
                "retrying Google",
                metadata: [
                    "endpoint": "\(endpoint)", "reason": "\(trouble)", "pause_ms": "\(pause / .milliseconds(1))",
                ])
            Thread.sleep(forTimeInterval: pause / .seconds(1))
        }
    }

    private func exchange(_ request: HTTPClient.Request, deadline: ContinuousClock.Instant) -> StoreExchange {
        let limit = min(callTimeout, ContinuousClock.now.duration(to: deadline))
        guard limit > .milliseconds(50) else { return .failed(reason: "no time left before the deadline") }
        return client.exchange(request, within: limit, maxBytes: Self.maxAnswerBytes)
    }
}
