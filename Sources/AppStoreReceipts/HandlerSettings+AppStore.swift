import GatewayCore
import ProductCatalog
import PurchaseLedger

extension HandlerSettings {
    /// The App Store verifier of this load (the `apple` section, the catalog and the ledger), built once
    /// and shared by every route that verifies receipts, so they share one cache and one connection pool.
    public func appStoreVerifier() throws -> AppStoreVerifier {
        try shared(Self.verifierKey) {
            let settings = AppStoreSettings(config)
            let catalog = try catalog()
            let ledger = try ledger()
            return AppStoreVerifier(
                settings: settings, catalog: catalog, ledger: ledger, tokens: try downloadTokens(),
                metricsFactory: metrics.factory)
        }
    }

    /// The verifier of this load if a route built one, without building it.
    public var builtAppStoreVerifier: AppStoreVerifier? { existing(Self.verifierKey) }

    private static let verifierKey = "AppStoreReceipts.verifier"
}
