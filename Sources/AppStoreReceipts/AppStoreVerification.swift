import AppStoreServerAPI
import CoreMetrics
import GatewayCore
@_spi(VerifierBackends) import PurchaseVerification

/// The App Store's verification backends, configured by the `apple` section: app receipts through
/// verifyReceipt (`apple.verifier: online`), here (`local`), or here with verifyReceipt for what cannot be
/// checked here (`local-then-online`); StoreKit 2 signed transactions and App Store Server Notifications V2,
/// always here against `apple.root_certificates`; bare transaction ids through the App Store Server API
/// (`apple.server_api`).
@_spi(VerifierBackends)
public enum AppStoreVerification: VerifierProvider {
    public static let section = "apple"

    public static func makeBackends(settings: HandlerSettings) throws -> [any VerificationBackend] {
        guard settings.config.hasSection(section) else { return [] }
        let apple = AppStoreSettings(settings.config)
        settings.metrics.declare(ErrorCode.appStore)
        let section = settings.config.scoped(section)
        let serverAPI = serverAPIBackend(section, apple: apple, metricsFactory: settings.metrics.factory)
        var backends: [any VerificationBackend] = []
        if let serverAPI { backends.append(serverAPI) }
        let online = { VerifyReceiptBackend(settings: apple, metricsFactory: settings.metrics.factory) }
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

    /// The Server API backend when `apple.server_api` is configured (it needs `root_certificates` to verify
    /// Apple's signed answers).
    private static func serverAPIBackend(
        _ section: ConfigReader, apple: AppStoreSettings, metricsFactory: any MetricsFactory
    ) -> ServerAPIBackend? {
        guard let api = ServerAPISettings(section, bundleIds: apple.bundleIds, acceptSandbox: apple.acceptSandbox)
        else { return nil }
        guard let verifier = apple.signedData else {
            section.report("server_api", "needs apple.root_certificates to verify Apple's signed answers")
            return nil
        }
        return ServerAPIBackend(
            client: ServerAPIClient(settings: api, verifier: verifier, metricsFactory: metricsFactory),
            settings: apple, consumption: ConsumptionPolicy(section), backfillsAtStart: api.backfillOnStart,
            metricsFactory: metricsFactory)
    }
}
