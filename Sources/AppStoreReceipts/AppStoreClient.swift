import AppStoreServerAPI
import AsyncHTTPClient
import CoreMetrics
import Foundation
import GatewayConcurrency
import GatewayHandlerAPI
import Logging
import NIOCore
import StoreHTTP
import Synchronization

/// Apple's verifyReceipt over HTTPS (TLS verification always on; http only to a loopback stand-in), with
/// the status policy of docs/ARCHITECTURE.md 6: production first, 21007 → sandbox, 21008 → production, one retry for
/// 21002, bounded exponential backoff with jitter for Apple's trouble, all within the caller's deadline.
///
/// Runs on the gateway's worker threads: each call blocks its worker until Apple answers or the deadline.
package final class AppStoreClient: Sendable {
    /// Which verifyReceipt host answered.
    package enum Endpoint: String, Sendable {
        case production = "Production"
        case sandbox = "Sandbox"
    }

    let settings: AppStoreSettings
    let http: HTTPClient
    private let lastFailure = Mutex<String?>(nil)
    let gate: AppleCallGate
    let callMetrics: AppleCallMetrics
    /// Apple's answers are a few KiB; this bounds what a lying upstream can make the gateway hold.
    static let maxAnswerBytes = 8 << 20

    /// A client for `settings` that records its calls through `metricsFactory`.
    package init(settings: AppStoreSettings, metricsFactory: any MetricsFactory) {
        self.settings = settings
        callMetrics = AppleCallMetrics(factory: metricsFactory)
        gate = AppleCallGate(limit: settings.maxConcurrentCalls, factory: metricsFactory)
        http = .forStore(callTimeout: settings.callTimeout, maxConnectionsPerHost: settings.maxConnections)
    }

    deinit {
        http.shutdown(queue: .global()) { _ in }
    }

    /// The most recent failure to get a verdict, with its time, for `/v1/status`.
    package var lastError: String? { lastFailure.withLock { $0 } }

    /// Verifies `receiptData` with Apple. Throws ``UpstreamFailure`` for a rejection, a refused shared
    /// secret, or no verdict before `deadline`.
    func verify(
        receiptData: String,
        excludeOldTransactions: Bool,
        deadline: ContinuousClock.Instant,
        logger: Logger
    ) throws(UpstreamFailure) -> (VerifyReceiptResponse, Endpoint) {
        let body = requestBody(receiptData: receiptData, excludeOldTransactions: excludeOldTransactions)
        var endpoint = Endpoint.production
        var switches = 0
        var retriedMalformed = false
        var attempts = 0
        while true {
            attempts += 1
            let trouble: String
            switch call(endpoint, body: body, deadline: deadline) {
            case .failure(let failure):
                callMetrics.count(endpoint, failure.outcome)
                trouble = failure.reason
            case .success(let response):
                let action = ReceiptStatusPolicy.action(status: response.status, isRetryable: response.isRetryable)
                callMetrics.count(endpoint, .init(action))
                switch action {
                case .accept:
                    return (response, endpoint)
                case .switchToSandbox, .switchToProduction:
                    guard switches < 2 else {
                        throw noted(.unavailable(reason: "Apple keeps redirecting between production and sandbox"))
                    }
                    switches += 1
                    endpoint = endpoint == .production ? .sandbox : .production
                    continue
                case .retryOnce where !retriedMalformed:
                    retriedMalformed = true
                    continue
                case .retryOnce, .reject:
                    throw UpstreamFailure.rejected(status: response.status)
                case .misconfigured:
                    logger.critical(
                        "the App Store refused the shared secret (21004): set apple.shared_secret to the app's shared secret",
                        metadata: ["endpoint": "\(endpoint.rawValue)"]
                    )
                    throw noted(.misconfigured)
                case .retryWithBackoff:
                    trouble = "status \(response.status) from \(endpoint.rawValue)"
                }
            }
            let pause = RetryBackoff.pause(afterAttempt: attempts)
            guard attempts < settings.maxAttempts, ContinuousClock.now + pause + .milliseconds(50) < deadline else {
                logger.warning(
                    "the App Store gave no verdict", metadata: ["reason": "\(trouble)", "attempts": "\(attempts)"])
                throw noted(.unavailable(reason: trouble))
            }
            logger.info(
                "retrying the App Store",
                metadata: ["reason": "\(trouble)", "pause_ms": "\(pause.nanoseconds / 1_000_000)"])
            Thread.sleep(forTimeInterval: Double(pause.nanoseconds) / 1e9)
        }
    }

    private func noted(_ failure: UpstreamFailure) -> UpstreamFailure {
        let time = Date().formatted(.iso8601)
        lastFailure.withLock { $0 = "\(time): \(failure)" }
        return failure
    }

    private func requestBody(receiptData: String, excludeOldTransactions: Bool) -> [UInt8] {
        var fields: [String: any Sendable] = [
            "receipt-data": receiptData, "exclude-old-transactions": excludeOldTransactions,
        ]
        if !settings.sharedSecret.isEmpty { fields["password"] = settings.sharedSecret }
        // A dictionary of strings and a boolean always serialises.
        return Array((try? JSONSerialization.data(withJSONObject: fields)) ?? Data())
    }
}
