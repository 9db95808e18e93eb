import AppStoreServerAPI
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
        let online =
            apple.receiptVerification == .local
            ? nil : VerifyReceiptBackend(settings: apple, metricsFactory: settings.metrics.factory)
        let receipts: any VerificationBackend =
            if apple.receiptVerification == .online, let online { online } else {
                LocalReceiptBackend(settings: apple, fallback: online)
            }
        var backends: [any VerificationBackend] = [receipts, SignedTransactionBackend(settings: apple)]
        let section = settings.config.scoped(section)
        if let api = ServerAPISettings(section, bundleIds: apple.bundleIds, acceptSandbox: apple.acceptSandbox) {
            if let verifier = apple.signedData {
                backends.append(
                    ServerAPIBackend(
                        client: ServerAPIClient(
                            settings: api, verifier: verifier, metricsFactory: settings.metrics.factory)
                    ))
            } else {
                section.report("server_api", "needs apple.root_certificates to verify Apple's signed answers")
            }
        }
        return backends
    }
}
