@_spi(VerifierBackends) import AppStoreReceipts
import GatewayCore
@_spi(VerifierBackends) import PurchaseVerification

/// The handlers and verifier backends only the test gateway carries.
public enum TestbedRegistry {
    /// `registry` with the test handlers added, and the fixture backend after the App Store's.
    public static func adding(to registry: HandlerRegistry) -> HandlerRegistry {
        registry.adding([
            SlowHandler.self, EchoHandler.self, HandlerRegistry.module(FixtureContentHandler.self),
            HandlerRegistry.module(EntitlementEchoHandler.self),
        ])
        .providing(VerifierRegistry.key, VerifierRegistry([AppStoreVerification.self, FixtureVerification.self]))
    }
}
