import GatewayCore

/// The store modules a binary was built with. The binary provides it to every load under ``key``
/// (`HandlerRegistry.providing(VerifierRegistry.key, ...)`); the verification service builds its backends
/// from it.
public struct VerifierRegistry: Sendable {
    let providers: [any VerifierProvider.Type]

    /// A registry of `providers`, asked in this order.
    @_spi(VerifierBackends)
    public init(_ providers: [any VerifierProvider.Type]) {
        self.providers = providers
    }

    /// Where a binary provides its verifier registry.
    public static let key = SharedKey<VerifierRegistry>("PurchaseVerification.verifiers")
}
