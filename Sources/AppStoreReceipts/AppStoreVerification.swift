import AppStoreServerAPI
import CoreMetrics
import GatewayHandlerAPI
import PurchaseVerification

/// The App Store's verification backends, configured by the `apple` section: app receipts through
/// verifyReceipt (`apple.verifier: online`), here (`local`), or here with verifyReceipt for what cannot be
/// checked here (`local-then-online`); StoreKit 2 signed transactions and App Store Server Notifications V2,
/// always here against `apple.root_certificates`; bare transaction ids through the App Store Server API
/// (`apple.server_api`).
package enum AppStoreVerification: VerifierProvider {
    package static let section = "apple"
    /// The store's name in the ledger's refund requests and follow-ups (and a purchase id's default qualifier).
    static let store = "app-store"
    package static let credentialMembers = AppStoreCredential.members
    package static let exampleBody = AppStoreCredential.exampleBody

    package static func credential(in body: PurchaseBody) throws(GatewayError) -> (any StoreCredential)? {
        try AppStoreCredential(body: body)
    }

    /// A route that takes App Store Server Notifications verifies Production ones against the app's Apple ID, as
    /// Apple's own library does: `app_apple_id` is required when signed data is verified here (roots) in
    /// Production.
    package static func checkNotifications(_ section: ConfigReader) {
        let environments = section.stringList("environments")
        let appAppleId = section.string("app_apple_id").flatMap { Int($0) } ?? 0
        guard !section.stringList("root_certificates").isEmpty,
            environments.isEmpty || environments.contains("Production"),
            appAppleId == 0
        else { return }
        section.report(
            "app_apple_id",
            "is required: a route takes App Store Server Notifications, and Production ones are checked against your "
                + "app's Apple ID (App Store Connect, App Information), as Apple's own library does")
    }

    package static func makeBackends(_ setup: StoreSetup) throws -> [any VerificationBackend] {
        guard setup.isConfigured else { return [] }
        var apple = AppStoreSettings(setup.section)
        setup.declare(ErrorCode.appStore)
        let api = ServerAPISettings(setup.section, bundleIds: apple.bundleIds, acceptSandbox: apple.acceptSandbox)
        if let api, api.finishTransactions != .never {
            apple.finishes = FinishFollowUps(
                policy: api.finishTransactions, within: api.finishWithin, catalog: setup.catalog)
        }
        let serverAPI = api.flatMap { serverAPIBackend(setup, apple: apple, api: $0) }
        var backends: [any VerificationBackend] = []
        if let serverAPI { backends.append(serverAPI) }
        let online = { VerifyReceiptBackend(settings: apple, metricsFactory: setup.metricsFactory) }
        switch apple.receiptVerification {
        case .online: backends.append(online())
        case .local: backends.append(LocalReceiptBackend(settings: apple, fallback: nil))
        case .localThenOnline: backends.append(LocalReceiptBackend(settings: apple, fallback: online()))
        case .serverAPI: break  // the Server API backend takes receipts
        }
        let restoresFromApple = apple.receiptVerification == .serverAPI ? serverAPI : nil
        backends.append(SignedTransactionBackend(settings: apple, history: restoresFromApple))
        return backends
    }

    /// The Server API backend for `apple.server_api` (it needs `root_certificates` to verify Apple's signed
    /// answers). It answers consumption requests by `refund_requests`, or by the older `apple.consumption` where a
    /// config still has it, and finishes transactions as `finish_transactions` says.
    private static func serverAPIBackend(_ setup: StoreSetup, apple: AppStoreSettings, api: ServerAPISettings)
        -> ServerAPIBackend?
    {
        let section = setup.section
        guard let verifier = apple.signedData else {
            section.report("server_api", "needs apple.root_certificates to verify Apple's signed answers")
            return nil
        }
        return ServerAPIBackend(
            client: ServerAPIClient(settings: api, verifier: verifier, metricsFactory: setup.metricsFactory),
            settings: apple,
            consumption: section.hasSection("consumption")
                ? RefundRequestPolicy(section.scoped("consumption")) : setup.refundRequests,
            backfillsAtStart: api.backfillOnStart, metricsFactory: setup.metricsFactory)
    }
}
