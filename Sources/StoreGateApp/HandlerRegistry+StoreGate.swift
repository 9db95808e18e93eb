@_spi(VerifierBackends) import AppStoreReceipts
import GatewayCore
@_spi(VerifierBackends) import PurchaseVerification

extension HandlerRegistry {
    /// What the `storegate` binary carries: the compiled-in handler modules, and the store modules that
    /// verify purchases for them. A new store is one more entry in this list (and its module in Package.swift).
    public static var storegate: HandlerRegistry {
        compiledIn.providing(VerifierRegistry.key, VerifierRegistry([AppStoreVerification.self]))
    }
}
