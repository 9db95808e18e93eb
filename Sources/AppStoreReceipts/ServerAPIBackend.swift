import AppStoreServerAPI
import AppStoreSignedData
import CoreMetrics
import Foundation
import GatewayHandlerAPI
import Logging
import PurchaseVerification

/// Purchases verified by asking the App Store Server API for the customer's transaction history: Apple's
/// signed answer, verified here, is the truth recorded and answered, so a restore gets every purchase, not
/// only what the device sent. Present when the `apple` section has `server_api`; it takes bare transaction
/// ids (`{"transaction-id": "<id>"}`, as StoreKit 2 apps can send), and app receipts under
/// `apple.verifier: server-api`. A receipt's ids are read without checking its signature: a forged receipt
/// can only name an id, as a bare id does, and Apple's history decides what it is worth.
///
/// Histories are cached by the id asked for `apple.cache_ttl_s`, within `apple.cache_max_bytes`, and
/// concurrent requests for one id share one call, as verifyReceipt's verdicts are.
struct ServerAPIBackend: VerificationBackend {
    typealias Cache = VerificationCache<String, StorePurchases, GatewayError>

    let client: ServerAPIClient
    let settings: AppStoreSettings
    /// How CONSUMPTION_REQUEST notifications are answered; nil leaves them pending.
    let consumption: RefundRequestPolicy?
    /// `apple.server_api.backfill_on_start`.
    let backfillsNotificationsAtStart: Bool
    /// Set with `apple.server_api.set_app_account_token`.
    let tokenUpdates: AppAccountTokenUpdates?
    private let cache: Cache
    private let cacheLookups: CacheLookupCounters

    init(
        client: ServerAPIClient, settings: AppStoreSettings, consumption: RefundRequestPolicy? = nil,
        backfillsAtStart: Bool = false, metricsFactory: any MetricsFactory
    ) {
        self.client = client
        self.settings = settings
        self.consumption = consumption
        backfillsNotificationsAtStart = backfillsAtStart
        tokenUpdates = client.setsAppAccountToken ? AppAccountTokenUpdates(client: client) : nil
        cache = Cache(
            ttl: settings.cacheTTL, maxBytes: settings.cacheMaxBytes,
            unfinished: .upstreamUnavailable(retryAfterSeconds: UpstreamFailure.retryAfterSeconds))
        cacheLookups = CacheLookupCounters(factory: metricsFactory)
    }

    func accepts(_ credential: Credential) -> Bool {
        switch credential.appStore {
        case .transactionId: true
        case .appReceipt: settings.receiptVerification == .serverAPI
        case .signedTransactions, nil: false
        }
    }

    var lastUpstreamError: String? { client.lastError }

    /// Offers are signed with the in-app purchase key the Server API's calls use.
    var offerSigning: (any OfferSigning)? { AppStoreOfferSigning(signer: client.offerSigner) }

    func verify(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
        let purchases: StorePurchases
        switch credential.appStore {
        case .transactionId(let id): purchases = try history(through: id, context: context)
        case .appReceipt(let receipt): purchases = try verify(receipt, context: context)
        case .signedTransactions, nil: throw GatewayError.receiptRequired
        }
        return purchases.finishing(settings.finishes)
    }

    /// Get Notification History for production, and the sandbox when it is accepted: each `signedPayload` as
    /// the body Apple posts to the notification route.
    func notificationHistory(from start: Date, to end: Date, context: RequestContext) throws -> [[UInt8]]? {
        let environments: [ServerAPIEnvironment] = settings.acceptSandbox ? [.production, .sandbox] : [.production]
        var bodies: [[UInt8]] = []
        for environment in environments {
            let payloads: [String]
            do {
                payloads = try client.notificationHistory(
                    from: start, to: end, environment: environment, deadline: context.deadline,
                    logger: context.logger)
            } catch {
                throw error.gatewayError(logger: context.logger)
            }
            for payload in payloads {
                bodies.append(Array(try JSONSerialization.data(withJSONObject: ["signedPayload": payload])))
            }
        }
        return bodies
    }

    /// The customer's history through the receipt's newest transaction; a receipt without purchases has
    /// nothing to ask Apple about and entitles nothing.
    private func verify(_ receipt: AppReceiptCredential, context: RequestContext) throws(GatewayError)
        -> StorePurchases
    {
        let parsed: AppReceipt
        do {
            parsed = try AppReceipt(unverified: receipt.bytes)
        } catch {
            throw .badRequest("The receipt is not an app receipt: \(error.reason).")
        }
        guard settings.bundleIds.contains(parsed.bundleId) else { throw .bundleMismatch }
        guard parsed.environment != "Sandbox" || settings.acceptSandbox else { throw .sandboxNotAccepted }
        let newest = parsed.inAppPurchases.max {
            ($0.purchaseDate ?? .distantPast, $0.transactionId) < ($1.purchaseDate ?? .distantPast, $1.transactionId)
        }
        guard let newest else {
            return StorePurchases(
                status: 0, environment: parsed.environment, bundleId: parsed.bundleId, transactions: [],
                logMetadata: ["apple_source": "receipt_without_purchases"])
        }
        return try history(through: newest.transactionId, context: context)
    }

    /// The history of the customer who made transaction `id`, from the cache or Apple.
    func history(through id: String, context: RequestContext) throws(GatewayError) -> StorePurchases {
        let (purchases, cached) = try cache.verdict(for: id, deadline: context.deadline) { () throws(GatewayError) in
            let purchases = try askApple(id, context: context)
            return (purchases, cost: 256 + 768 * purchases.transactions.count)
        }
        cacheLookups.count(cached: cached)
        return StorePurchases(
            status: purchases.status, environment: purchases.environment, bundleId: purchases.bundleId,
            transactions: purchases.transactions,
            logMetadata: ["apple_source": "transaction_history", "cached": "\(cached)"])
    }

    private func askApple(_ id: String, context: RequestContext) throws(GatewayError) -> StorePurchases {
        let history: [ServerAPISigned]
        do {
            history = try client.transactionHistory(id, deadline: context.deadline, logger: context.logger)
        } catch {
            throw error.gatewayError(logger: context.logger)
        }
        let purchases = try Self.purchases(from: history, context: context)
        guard purchases.transactions.contains(where: { $0.appTransactionId == nil }) else { return purchases }
        let appTransactionId = appTransactionId(of: id, in: purchases, context: context)
        return StorePurchases(
            status: purchases.status, environment: purchases.environment, bundleId: purchases.bundleId,
            transactions: purchases.transactions.map { $0.ofAppTransaction(appTransactionId, claimedByApp: false) })
    }

    /// The app transaction of the customer who made `id` (Get App Transaction Info), for transactions signed
    /// before Apple put it in them. Support's key only: when Apple cannot say, the purchases are recorded without
    /// it (logged), never refused.
    private func appTransactionId(of id: String, in purchases: StorePurchases, context: RequestContext) -> String? {
        guard let environment = ServerAPIEnvironment(rawValue: purchases.environment) else { return nil }
        do {
            let signed = try client.appTransactionInfo(
                id, environment: environment, deadline: context.deadline, logger: context.logger)
            return try AppTransactionFacts(
                signed.payload, environment: purchases.environment, bundleId: purchases.bundleId, settings: settings
            ).appTransactionId
        } catch {
            // In words for the operator: a gateway error's sentence, or what went wrong with Apple.
            let reason = (error as? GatewayError)?.message ?? "\(error)"
            context.logger.warning(
                "the customer's app transaction could not be read", metadata: ["reason": "\(reason)"])
            return nil
        }
    }

    /// Apple's verified transactions as purchases; 422 `transaction_not_found` for none.
    static func purchases(from signed: [ServerAPISigned], context: RequestContext) throws(GatewayError)
        -> StorePurchases
    {
        guard let first = signed.first, let bundleId = first.payload.bundleId else { throw .transactionNotFound }
        let transactions = signed.compactMap { signed in
            (try? JSONValue.decoded(signed.payload.json)).flatMap(PurchaseTransaction.init(signedPayload:))
        }
        // Apple signed a transaction without an id or product: record none of the history rather than part.
        guard transactions.count == signed.count else {
            context.logger.error("a signed transaction in Apple's answer lacks transactionId or productId")
            throw .upstreamUnavailable(retryAfterSeconds: UpstreamFailure.retryAfterSeconds)
        }
        return StorePurchases(
            status: 0, environment: first.payload.environment, bundleId: bundleId, transactions: transactions)
    }
}
