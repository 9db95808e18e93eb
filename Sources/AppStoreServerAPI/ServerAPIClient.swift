import AppStoreSignedData
import AsyncHTTPClient
import CoreMetrics
import Foundation
import GatewayConcurrency
import GatewayCore
import Logging
import NIOCore
import NIOHTTP1
import StoreHTTP
import Synchronization

/// The App Store Server API over HTTPS (TLS always verified; http only to a loopback stand-in): a JWT per
/// call, Apple's failures mapped to ``ServerAPIFailure``, bounded retries with backoff for Apple's trouble,
/// `Retry-After` honoured and an hourly budget per endpoint. Every signed value in an answer is verified
/// with the gateway's own ``SignedDataVerifier`` before it is handed on.
///
/// Runs on the gateway's worker threads: each call blocks its worker until Apple answers or the deadline.
package final class ServerAPIClient: Sendable {
    let settings: ServerAPISettings
    let verifier: SignedDataVerifier
    let tokens: ServerAPITokens
    let budget: CallBudget<ServerAPIEndpoint>
    let metrics: ServerAPIMetrics
    let http: HTTPClient
    private let lastFailure = Mutex<String?>(nil)
    /// Apple's answers are a few KiB a page; this bounds what a lying upstream can make the gateway hold.
    static let maxAnswerBytes = 4 << 20

    /// A client for `settings` whose answers are verified by `verifier`.
    package init(settings: ServerAPISettings, verifier: SignedDataVerifier, metricsFactory: any MetricsFactory) {
        self.settings = settings
        self.verifier = verifier
        tokens = ServerAPITokens(credentials: settings.credentials)
        budget = CallBudget(calls: settings.callsPerHour, per: .seconds(3600))
        metrics = ServerAPIMetrics(factory: metricsFactory)
        http = .forStore(callTimeout: settings.callTimeout)
    }

    /// The most recent failure to get an answer from Apple (a refused key, 429, an outage), with its time,
    /// for `/v1/status`.
    package var lastError: String? { lastFailure.withLock { $0 } }

    /// `set_app_account_token`: whether purchases bound to an app account get it as their `appAccountToken`.
    package var setsAppAccountToken: Bool { settings.setsAppAccountToken }

    /// What signs the app's subscription offers with the same in-app purchase key.
    package var offerSigner: ServerAPIOfferSigner { ServerAPIOfferSigner(credentials: settings.credentials) }

    /// How long one call from background work may take (``ServerAPISettings/backgroundCallDeadline``).
    package var backgroundCallDeadline: Duration { settings.backgroundCallDeadline }

    deinit {
        http.shutdown(queue: .global()) { _ in }
    }

    /// One request to `environment`'s host, retried while Apple is in trouble; the answer's body on 200/202.
    func send(
        _ endpoint: ServerAPIEndpoint, to environment: ServerAPIEnvironment, method: NIOHTTP1.HTTPMethod, path: String,
        body: [UInt8]? = nil, deadline: ContinuousClock.Instant, logger: Logger
    ) throws(ServerAPIFailure) -> [UInt8] {
        var attempt = 0
        while true {
            attempt += 1
            if let wait = budget.take(endpoint) {
                metrics.count(endpoint, environment, .overBudget)
                throw .rateLimited(
                    "the \(endpoint.rawValue) budget of the App Store Server API is spent", retryAfter: wait)
            }
            let started = ContinuousClock.now
            let exchange = call(environment, method: method, path: path, body: body, deadline: deadline)
            metrics.time(endpoint, since: started)
            let trouble: String
            switch ServerAPIAnswer.classify(exchange, now: Date()) {
            case .success(let bytes):
                metrics.count(endpoint, environment, .ok)
                return bytes
            case .failure(let verdict):
                metrics.count(endpoint, environment, verdict.outcome)
                switch verdict.kind {
                case .final(let failure):
                    if failure.isMisconfigured {
                        logger.critical(
                            "the App Store Server API refused the gateway's token (401): check apple.server_api issuer_id, key_id, the key and bundle_id",
                            metadata: ["endpoint": "\(endpoint.rawValue)", "credentials": "\(settings.credentials)"])
                    }
                    if failure.isRateLimited, let pause = failure.retryAfter { budget.close(endpoint, for: pause) }
                    if failure.isMisconfigured || failure.isRateLimited { remember(failure) }
                    throw failure
                case .retry(let reason):
                    trouble = reason
                }
            }
            let pause = RetryBackoff.pause(afterAttempt: attempt)
            guard attempt < settings.maxAttempts, ContinuousClock.now + pause + .milliseconds(50) < deadline else {
                logger.warning(
                    "the App Store Server API gave no answer",
                    metadata: ["endpoint": "\(endpoint.rawValue)", "reason": "\(trouble)", "attempts": "\(attempt)"])
                throw remember(.unavailable(trouble, retryAfter: .seconds(5)))
            }
            logger.info(
                "retrying the App Store Server API",
                metadata: [
                    "endpoint": "\(endpoint.rawValue)", "reason": "\(trouble)",
                    "pause_ms": "\(pause / .milliseconds(1))",
                ])
            Thread.sleep(forTimeInterval: pause / .seconds(1))
        }
    }

    @discardableResult
    private func remember(_ failure: ServerAPIFailure) -> ServerAPIFailure {
        let time = Date().formatted(.iso8601)
        lastFailure.withLock { $0 = "\(time): App Store Server API \(failure)" }
        return failure
    }

    private func call(
        _ environment: ServerAPIEnvironment, method: NIOHTTP1.HTTPMethod, path: String, body: [UInt8]?,
        deadline: ContinuousClock.Instant
    ) -> ServerAPIAnswer.Exchange {
        let limit = min(settings.callTimeout, ContinuousClock.now.duration(to: deadline))
        guard limit > .milliseconds(50) else { return .failed("no time left before the deadline", .timeout) }
        let base = environment == .production ? settings.productionURL : settings.sandboxURL
        let token: String
        do throws(ServerAPIFailure) {
            token = try tokens.token()
        } catch {
            return .unsent(error, .unauthorized)
        }
        let request: HTTPClient.Request
        do {
            var made = try HTTPClient.Request(url: base + path, method: method, body: body.map { .bytes($0) })
            made.headers.add(name: "Authorization", value: "Bearer " + token)
            if body != nil { made.headers.add(name: "Content-Type", value: "application/json") }
            request = made
        } catch {
            return .failed("\(error) calling \(environment.rawValue)", .connectionError)
        }
        switch http.exchange(request, within: limit, maxBytes: Self.maxAnswerBytes) {
        case .answered(let status, let retryAfter, let body):
            return .answered(status: status, retryAfter: retryAfter, body: body)
        case .timedOut: return .failed("no answer from \(environment.rawValue) in time", .timeout)
        case .tooLarge:
            return .failed("an answer over \(Self.maxAnswerBytes) bytes from \(environment.rawValue)", .tooLarge)
        case .failed(let reason): return .failed("\(reason) calling \(environment.rawValue)", .connectionError)
        }
    }
}
