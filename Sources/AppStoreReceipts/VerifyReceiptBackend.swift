import CoreMetrics
import GatewayHandlerAPI
import Logging
import PurchaseVerification

/// App receipts through Apple's verifyReceipt: Apple's verdict (cached, shared between concurrent identical
/// requests), then this server's policy (bundle ids, sandbox).
final class VerifyReceiptBackend: VerificationBackend {
    let client: AppStoreClient
    private let settings: AppStoreSettings
    private let cache: Cache
    private let cacheLookups: CacheLookupCounters
    /// Time kept back from the request's deadline to answer 503 before the front answers 504.
    private static let answerMargin: Duration = .milliseconds(300)

    /// A backend that records its Apple calls and cache lookups through `metricsFactory`.
    init(settings: AppStoreSettings, metricsFactory: any MetricsFactory) {
        self.settings = settings
        client = AppStoreClient(settings: settings, metricsFactory: metricsFactory)
        cache = Cache(
            ttl: settings.cacheTTL, maxBytes: settings.cacheMaxBytes,
            unfinished: .unavailable(reason: "the same receipt's verification did not finish in time"))
        cacheLookups = CacheLookupCounters(factory: metricsFactory)
    }

    /// A verdict of verifyReceipt worth keeping.
    enum Verdict: Sendable {
        case verified(VerifyReceiptResponse, AppStoreClient.Endpoint)
        case rejected(status: Int)
    }

    typealias Cache = VerificationCache<ReceiptDigest, Verdict, UpstreamFailure>

    func accepts(_ credential: Credential) -> Bool {
        if case .appReceipt = credential.appStore { true } else { false }
    }

    var lastUpstreamError: String? { client.lastError }

    func verify(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
        guard case .appReceipt(let receipt) = credential.appStore else { throw GatewayError.receiptRequired }
        return try verify(receipt, context: context)
    }

    private func verify(_ receipt: AppReceiptCredential, context: RequestContext) throws(GatewayError)
        -> StorePurchases
    {
        let digest = ReceiptDigest(receiptData: receipt.base64, excludeOldTransactions: receipt.excludeOldTransactions)
        let label = "\(digest)"
        // Built only when something is logged: a cached verdict for a good receipt logs nothing here.
        var logger: Logger {
            var logger = context.logger
            logger[metadataKey: "receipt"] = "\(label)"
            return logger
        }
        let deadline = context.deadline - Self.answerMargin
        let verdict: Verdict
        let cached: Bool
        do throws(UpstreamFailure) {
            (verdict, cached) = try cache.verdict(for: digest, deadline: deadline) { () throws(UpstreamFailure) in
                do throws(UpstreamFailure) {
                    let (response, endpoint) = try client.verify(
                        receiptData: receipt.base64, excludeOldTransactions: receipt.excludeOldTransactions,
                        deadline: deadline, logger: logger)
                    return (.verified(response, endpoint), cost: 512 + 768 * response.transactions.count)
                } catch {
                    guard case .rejected(let status) = error else { throw error }
                    return (.rejected(status: status), cost: 256)
                }
            }
        } catch {
            throw error.gatewayError
        }
        cacheLookups.count(cached: cached)
        switch verdict {
        case .rejected(let status):
            logger.info(
                "receipt rejected by the App Store", metadata: ["apple_status": "\(status)", "cached": "\(cached)"])
            throw .receiptInvalid(appleStatus: status)
        case .verified(let response, let endpoint):
            guard let bundleId = response.bundleId, settings.bundleIds.contains(bundleId) else {
                logger.info("receipt for another app", metadata: ["bundle_id": "\(response.bundleId ?? "none")"])
                throw .bundleMismatch
            }
            guard endpoint == .production || settings.acceptSandbox else { throw .sandboxNotAccepted }
            return StorePurchases(
                status: response.status, environment: endpoint.rawValue, bundleId: bundleId,
                transactions: response.transactions, logMetadata: ["receipt": "\(label)", "cached": "\(cached)"]
            ).finishing(settings.finishes)
        }
    }
}
