import CoreMetrics
import Foundation
import GatewayCore
import Logging
import ProductCatalog
import PurchaseLedger

/// Turns a base64 receipt into a ``VerifiedReceipt``: Apple's verdict (cached, shared between concurrent
/// identical requests), this server's policy (bundle ids, sandbox), the ledger record, then entitlements.
/// Used by `/v1/verify`, `/v1/restore-sync` and the receipt-verification middleware alike.
public final class AppStoreVerifier: Sendable {
    public let client: AppStoreClient
    let settings: AppStoreSettings
    let catalog: Catalog
    let ledger: any PurchaseLedger
    /// Set when `tokens.secret` is: entitlements to products with content then carry download tokens.
    let tokens: DownloadTokens?
    private let cache: VerificationCache
    private let cacheHits: Counter
    private let cacheMisses: Counter
    /// Time kept back from the request's deadline to answer 503 before the front answers 504.
    private static let answerMargin: Duration = .milliseconds(300)

    /// A verifier that records its Apple calls and cache lookups through `metricsFactory`.
    public init(
        settings: AppStoreSettings, catalog: Catalog, ledger: any PurchaseLedger, tokens: DownloadTokens? = nil,
        metricsFactory: any MetricsFactory
    ) {
        self.settings = settings
        self.catalog = catalog
        self.ledger = ledger
        self.tokens = tokens
        client = AppStoreClient(settings: settings, metricsFactory: metricsFactory)
        cache = VerificationCache(ttl: settings.cacheTTL, maxBytes: settings.cacheMaxBytes)
        let lookups = "storegate_verification_cache_lookups_total"
        cacheHits = Counter(label: lookups, dimensions: [("result", "hit")], factory: metricsFactory)
        cacheMisses = Counter(label: lookups, dimensions: [("result", "miss")], factory: metricsFactory)
    }

    /// Verifies, checks and records `receiptData`. Throws the ``GatewayError`` of API.md's table.
    public func verify(
        receiptData: String,
        excludeOldTransactions: Bool,
        source: LedgerSource,
        context: RequestContext
    ) throws(GatewayError) -> VerifiedReceipt {
        let receipt = try Self.validatedBase64(receiptData)
        if settings.receiptVerification != .online {
            do {
                return try verifyLocally(receipt: receipt, source: source, context: context)
            } catch {
                switch error {
                case .refused(let refusal): throw refusal
                case .uncheckable(let problem) where settings.receiptVerification == .local: throw problem
                case .uncheckable: break  // local-then-online: Apple decides
                }
            }
        }
        let digest = ReceiptDigest(receiptData: receipt, excludeOldTransactions: excludeOldTransactions)
        var logger = context.logger
        logger[metadataKey: "receipt"] = "\(digest)"
        let verdict: VerificationCache.Verdict
        let cached: Bool
        do throws(UpstreamFailure) {
            (verdict, cached) = try cache.verdict(for: digest, deadline: context.deadline - Self.answerMargin) {
                () throws(UpstreamFailure) in
                do throws(UpstreamFailure) {
                    let (response, endpoint) = try client.verify(
                        receiptData: receipt,
                        excludeOldTransactions: excludeOldTransactions,
                        deadline: context.deadline - Self.answerMargin,
                        logger: logger
                    )
                    return (.verified(response, endpoint), cost: 512 + 768 * response.transactions.count)
                } catch {
                    guard case .rejected(let status) = error else { throw error }
                    return (.rejected(status: status), cost: 256)
                }
            }
        } catch {
            throw error.gatewayError
        }
        (cached ? cacheHits : cacheMisses).increment()
        switch verdict {
        case .rejected(let status):
            logger.info(
                "receipt rejected by the App Store", metadata: ["apple_status": "\(status)", "cached": "\(cached)"])
            throw .receiptInvalid(appleStatus: status)
        case .verified(let response, let endpoint):
            return try accept(
                response, endpoint: endpoint, source: source, cached: cached, context: context, logger: logger)
        }
    }

    private func accept(
        _ response: VerifyReceiptResponse,
        endpoint: AppStoreClient.Endpoint,
        source: LedgerSource,
        cached: Bool,
        context: RequestContext,
        logger: Logger
    ) throws(GatewayError) -> VerifiedReceipt {
        guard let bundleId = response.bundleId, settings.bundleIds.contains(bundleId) else {
            logger.info("receipt for another app", metadata: ["bundle_id": "\(response.bundleId ?? "none")"])
            throw .bundleMismatch
        }
        guard endpoint == .production || settings.acceptSandbox else { throw .sandboxNotAccepted }
        var logger = logger
        logger[metadataKey: "cached"] = "\(cached)"
        return try record(
            response.transactions, status: response.status, environment: endpoint.rawValue, bundleId: bundleId,
            source: source, context: context, logger: logger)
    }

    /// Records verified `transactions` in the ledger and answers with their entitlements.
    func record(
        _ transactions: [AppleTransaction],
        status: Int,
        environment: String,
        bundleId: String,
        source: LedgerSource,
        context: RequestContext,
        logger: Logger
    ) throws(GatewayError) -> VerifiedReceipt {
        let rows = EntitlementRules.ledgerTransactions(
            transactions, environment: environment, bundleId: bundleId, catalog: catalog)
        let outcome: RecordOutcome
        do {
            outcome = try ledger.record(LedgerBatch(transactions: rows, source: source, requestId: context.requestId))
        } catch {
            logger.error("the ledger could not record verified transactions", metadata: ["reason": "\(error.reason)"])
            throw .ledgerUnavailable(retryAfterSeconds: 2)
        }
        let entitlements = EntitlementRules.entitlements(from: transactions, catalog: catalog, now: Date())
        logger.info(
            "purchases verified",
            metadata: [
                "environment": "\(environment)", "transactions": "\(rows.count)", "recorded": "\(outcome.recorded)",
                "entitlements": "\(entitlements.count)",
            ]
        )
        return VerifiedReceipt(
            status: status,
            environment: environment,
            bundleId: bundleId,
            transactions: transactions,
            entitlements: entitlements,
            recorded: outcome
        )
    }

    /// The receipt without the line breaks and spaces some clients add; 400 unless it is base64.
    static func validatedBase64(_ text: String) throws(GatewayError) -> String {
        let compact = text.filter { !$0.isWhitespace }
        guard !compact.isEmpty, Data(base64Encoded: compact) != nil else {
            throw .badRequest("receipt-data must be the app receipt in base64.")
        }
        return compact
    }
}
