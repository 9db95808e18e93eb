import CoreMetrics
import Foundation
import GatewayHandlerAPI
import GooglePlayAPI
import Logging
import PurchaseLedger
import PurchaseVerification

/// Google Play purchases, checked with the Play Developer API: one-time products through productsv2, and
/// subscriptions (a `product-id` the catalog sells as auto-renewable) through subscriptionsv2. Google's product
/// ids are the catalog's by its `store_ids.google-play`, else its own ids. What Google
/// says is mapped to the store-neutral transactions, after this server's policy (the app's package names,
/// test purchases); Google's state decides: `PURCHASED` and active subscriptions entitle, a pending purchase
/// is `purchase_pending`, a cancelled one is recorded as cancelled, a subscription past its expiry entitles
/// nothing. A purchase of the catalog's that Google still waits to hear about is recorded with its follow-ups
/// (acknowledge; consume a consumable, after its first download when it has content), which
/// ``GoogleFollowUps`` sends.
final class GooglePlayBackend: VerificationBackend {
    typealias Cache = VerificationCache<String, StorePurchases, GatewayError>

    let client: GooglePlayClient
    let settings: GooglePlaySettings
    private let catalog: Catalog?
    /// What Google vouched for, by kind, app and token digest: a burst of requests with one token (a download
    /// after its verify) costs Google one call, concurrent ones included.
    private let cache: Cache
    private let cacheLookups: CacheLookupCounters
    /// Checks the pushes of `google.notifications`; nil without the section (pushes are refused).
    let pushes: GooglePushAuthenticator?
    /// Answers Google's refund reviews under `refund_requests`; nil without it (they are recorded, left pending).
    private let reviews: GoogleRefundReviews?

    init(
        client: GooglePlayClient, settings: GooglePlaySettings, catalog: Catalog?,
        refundRequests: RefundRequestPolicy? = nil, metricsFactory: any MetricsFactory
    ) {
        self.client = client
        self.settings = settings
        self.catalog = catalog
        reviews = refundRequests.map { GoogleRefundReviews(client: client, api: settings.api, policy: $0) }
        pushes = settings.push.map { push in
            GooglePushAuthenticator(
                audience: push.audience, email: push.email, keys: push.keys, callTimeout: settings.api.callTimeout,
                metricsFactory: metricsFactory)
        }
        cache = Cache(
            ttl: settings.cacheTTL, maxBytes: settings.cacheMaxBytes,
            unfinished: .googleUnavailable(retryAfterSeconds: 5))
        cacheLookups = CacheLookupCounters(factory: metricsFactory)
    }

    func accepts(_ credential: Credential) -> Bool {
        guard case .store(let store) = credential else { return false }
        return store is GooglePlayCredential
    }

    var lastUpstreamError: String? { client.lastError }

    /// A Google order id (`GPA.…`, a renewal's `GPA.…..1`) as the ledger names it for each app.
    func ledgerIds(ofOrder orderId: String) -> [String] {
        settings.packageNames.map { GooglePlayIds.order(orderId, packageName: $0) }
    }

    /// With `acknowledge` or `consume`, a serving gateway sends the follow-ups on a thread of its own; with
    /// `refund_requests`, it answers Google's refund reviews on another.
    func startBackgroundWork(_ services: StoreServices) -> [any BackgroundWork] {
        var works: [any BackgroundWork] = []
        if settings.acknowledge || settings.consume {
            let followUps = FollowUpSender(
                performer: GoogleFollowUps(client: client, api: settings.api), services: services)
            followUps.start()
            works.append(followUps)
        }
        if let reviews {
            let responder = EvidenceResponder(answerer: reviews, services: services, lease: reviews.lease)
            responder.start()
            works.append(responder)
        }
        return works
    }

    func verify(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
        guard case .store(let store) = credential, let purchase = store as? GooglePlayCredential else {
            throw GatewayError.badRequest("This server cannot verify that kind of purchase.")
        }
        let packageName = try app(of: purchase)
        let isSubscription = purchase.productId.flatMap(catalogProduct)?.kind == .autoRenewable
        let key = Self.cacheKey(purchase.token, packageName: packageName, subscription: isSubscription)
        let found = Result { () throws(GatewayError) in
            try cache.verdict(for: key, deadline: context.deadline) { () throws(GatewayError) in
                let purchases =
                    isSubscription
                    ? try subscription(purchase.token, packageName: packageName, context: context)
                    : try product(purchase.token, packageName: packageName, context: context)
                return (purchases, cost: 256 + 512 * purchases.transactions.count)
            }
        }
        if case .failure(let error) = found, error == .purchaseNoLongerValid {
            throw StorePurchaseEnded(store: GooglePlayIds.store, handle: TokenDigest.hex(purchase.token), answer: error)
        }
        let (purchases, cached) = try found.get()
        cacheLookups.count(cached: cached)
        return StorePurchases(
            status: purchases.status, environment: purchases.environment, bundleId: purchases.bundleId,
            transactions: purchases.transactions,
            logMetadata: purchases.logMetadata.merging(["cached": "\(cached)"]) { _, cachedNow in cachedNow },
            followUps: purchases.followUps, handles: purchases.handles)
    }

    /// What the cache keeps the verdict on `token` by: its kind, app and digest.
    private static func cacheKey(_ token: String, packageName: String, subscription: Bool) -> String {
        (subscription ? "subscription:" : "product:") + packageName + ":" + TokenDigest.hex(token)
    }

    /// Forgets the cached verdict on `token`: Google said it changed.
    func forgetVerdict(on token: String, packageName: String, subscription: Bool) {
        cache.forget(Self.cacheKey(token, packageName: packageName, subscription: subscription))
    }

    /// The catalog's product Google sells as `googleId`.
    private func catalogProduct(_ googleId: String) -> Product? {
        catalog?.product(store: GooglePlayIds.store, id: googleId)
    }

    /// The catalog's id of what Google sells as `googleId` (its own, when the catalog does not sell it).
    private func catalogId(_ googleId: String) -> String { catalogProduct(googleId)?.id ?? googleId }

    /// What Google answers `call`, or the answer to the client when it cannot.
    private func ask<Answer>(_ call: () throws(GooglePlayFailure) -> Answer) throws(GatewayError) -> Answer {
        do {
            return try call()
        } catch {
            throw .google(error)
        }
    }

    /// The app the purchase is for: the one the body names, or the only one configured.
    func app(of purchase: GooglePlayCredential) throws(GatewayError) -> String {
        if let named = purchase.packageName {
            guard settings.packageNames.contains(named) else { throw .googleBundleMismatch }
            return named
        }
        guard settings.packageNames.count == 1, let only = settings.packageNames.first else {
            throw .badRequest("This server sells for several Android apps: name the app in \"package-name\".")
        }
        return only
    }

    private func ledgerEnvironment(isTest: Bool) throws(GatewayError) -> String {
        if isTest, !settings.acceptSandbox { throw .googleSandboxNotAccepted }
        return isTest ? "Sandbox" : "Production"
    }

    func product(
        _ token: String, packageName: String, context: RequestContext
    ) throws(GatewayError) -> StorePurchases {
        let answer = try ask { () throws(GooglePlayFailure) in
            try client.productPurchase(
                packageName: packageName, token: token, deadline: context.deadline, logger: context.logger)
        }
        switch answer.state {
        case .pending: throw .purchasePending
        case .purchased, .cancelled: break
        case .unspecified: throw .googleUnavailable(retryAfterSeconds: 5)
        }
        let id =
            answer.orderId.map { GooglePlayIds.order($0, packageName: packageName) }
            ?? GooglePlayIds.token(token, packageName: packageName)
        let cancelled = answer.state == .cancelled ? Date() : nil
        let environment = try ledgerEnvironment(isTest: answer.isTest)
        var followUps: [StoreFollowUp] = []
        if answer.state == .purchased, let item = answer.lineItems.first, let product = catalogProduct(item.productId) {
            let purchase = (
                id: id, productId: product.id, app: packageName, storeProductId: item.productId, token: token
            )
            if settings.acknowledge, !answer.isAcknowledged {
                followUps.append(followUp(.acknowledge, of: purchase, environment: environment))
            }
            if settings.consume, product.kind == .consumable, !answer.lineItems.allSatisfy(\.isConsumed) {
                followUps.append(
                    followUp(.consume, of: purchase, environment: environment, afterDelivery: product.content != nil))
            }
        }
        let transactions = answer.lineItems.map { item in
            PurchaseTransaction(
                transactionId: id, originalTransactionId: id, productId: catalogId(item.productId),
                webOrderLineItemId: nil,
                purchaseDate: answer.purchaseCompletionTime, expiresDate: nil, cancellationDate: cancelled,
                quantity: item.quantity, accountToken: answer.obfuscatedExternalAccountId)
        }
        return StorePurchases(
            status: 0, environment: environment, bundleId: packageName, transactions: transactions,
            logMetadata: ["google_order": "\(answer.orderId ?? "none")"], followUps: followUps,
            handles: [handle(token, of: id, environment: environment)])
    }

    func subscription(
        _ token: String, packageName: String, context: RequestContext
    ) throws(GatewayError) -> StorePurchases {
        let answer = try ask { () throws(GooglePlayFailure) in
            try client.subscriptionPurchase(
                packageName: packageName, token: token, deadline: context.deadline, logger: context.logger)
        }
        switch answer.state {
        case .pending: throw .purchasePending
        case .unspecified: throw .googleUnavailable(retryAfterSeconds: 5)
        default: break
        }
        let environment = try ledgerEnvironment(isTest: answer.isTest)
        let current = periods(of: answer, token: token, packageName: packageName, cancelled: nil)
        var followUps: [StoreFollowUp] = []
        if settings.acknowledge, !answer.isAcknowledged, Self.awaitsAcknowledgement.contains(answer.state),
            let item = answer.lineItems.first, let product = catalogProduct(item.productId),
            let period = current.first
        {
            let purchase = (
                id: period.originalTransactionId, productId: product.id, app: packageName,
                storeProductId: item.productId, token: token
            )
            followUps.append(followUp(.acknowledgeSubscription, of: purchase, environment: environment))
        }
        var transactions = current
        if let linked = answer.linkedPurchaseToken {
            transactions += replaced(linked, packageName: packageName, at: answer.startTime ?? Date(), context: context)
        }
        return StorePurchases(
            status: 0, environment: environment, bundleId: packageName, transactions: transactions,
            logMetadata: ["google_subscription_state": "\(answer.state.rawValue)"], followUps: followUps,
            handles: current.first.map { [handle(token, of: $0.originalTransactionId, environment: environment)] } ?? []
        )
    }

    /// The ledger's record of `token` as the handle of the purchase `original`: its digest, never the token.
    private func handle(_ token: String, of original: String, environment: String) -> StoreHandle {
        StoreHandle(
            store: GooglePlayIds.store, handle: TokenDigest.hex(token), environment: environment,
            originalTransactionId: original)
    }

    /// The states of a bought subscription: Google refunds one not acknowledged within three days.
    private static let awaitsAcknowledgement: Set<SubscriptionPurchaseV2.State> = [
        .active, .inGracePeriod, .onHold, .paused, .canceled,
    ]

    /// The follow-up `action` of `purchase`, named by the action and the purchase (recording it again adds none).
    private func followUp(
        _ action: GoogleFollowUps.Action,
        of purchase: (id: String, productId: String, app: String, storeProductId: String, token: String),
        environment: String, afterDelivery: Bool = false
    ) -> StoreFollowUp {
        StoreFollowUp(
            key: "\(action.rawValue) \(environment) \(purchase.id)", store: GooglePlayIds.store,
            action: action.rawValue, environment: environment, originalTransactionId: purchase.id,
            productId: purchase.productId, app: purchase.app, storeProductId: purchase.storeProductId,
            subject: purchase.token, afterDelivery: afterDelivery)
    }

    /// The periods of a subscription purchase, one per line item, named by its orders.
    private func periods(
        of answer: SubscriptionPurchaseV2, token: String, packageName: String, cancelled: Date?
    ) -> [PurchaseTransaction] {
        answer.lineItems.map { item in
            let order = item.latestSuccessfulOrderId
            let original =
                order.map { GooglePlayIds.subscription($0, packageName: packageName) }
                ?? GooglePlayIds.token(token, packageName: packageName)
            let period = order.map { GooglePlayIds.order($0, packageName: packageName) } ?? original
            return PurchaseTransaction(
                transactionId: period, originalTransactionId: original, productId: catalogId(item.productId),
                webOrderLineItemId: period, purchaseDate: answer.startTime, expiresDate: item.expiryTime,
                cancellationDate: cancelled, quantity: 1, accountToken: answer.obfuscatedExternalAccountId)
        }
    }

    /// The subscription `linked` that an upgrade, a downgrade or a resubscription replaced, ended at `replacedAt`
    /// (recorded as cancelled then, so it stops granting); nothing when Google cannot say which it was now (the
    /// new one is recorded all the same, and the old one ends at its own expiry).
    private func replaced(
        _ linked: String, packageName: String, at replacedAt: Date, context: RequestContext
    ) -> [PurchaseTransaction] {
        do throws(GooglePlayFailure) {
            let old = try client.subscriptionPurchase(
                packageName: packageName, token: linked, deadline: context.deadline, logger: context.logger)
            return periods(of: old, token: linked, packageName: packageName, cancelled: replacedAt)
        } catch {
            context.logger.warning(
                "Google could not show the subscription a new one replaced; it ends at its own expiry",
                metadata: ["reason": "\(error)"])
            return []
        }
    }
}
