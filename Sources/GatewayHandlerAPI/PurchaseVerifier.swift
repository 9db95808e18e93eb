/// The verification service's verify and restore: checks the purchase credential in the body of the request
/// being answered with the store, records what the store vouches for, and answers the entitlements it gives
/// (with download tokens for products with content). What `verify` and `restore-sync` are handed.
public struct PurchaseVerifier: HandlerNeeds {
    private let verifying: @Sendable (GatewayRequest, _ restoring: Bool, RequestContext) throws -> VerifiedPurchases
    private let use: CapabilityUse?

    package init(
        _ verifying: @escaping @Sendable (GatewayRequest, _ restoring: Bool, RequestContext) throws -> VerifiedPurchases
    ) {
        self.verifying = verifying
        use = nil
    }

    private init(_ verifier: PurchaseVerifier, use: CapabilityUse) {
        verifying = verifier.verifying
        self.use = use
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<PurchaseVerifier> {
        Provision(PurchaseVerifier(try source.provider.purchaseVerifier(), use: source.use))
    }

    /// Verifies the receipt, signed transactions or transaction id in the body of the request `context` belongs
    /// to (400 without one) and records its transactions; a request for an app account also claims the
    /// purchases for it.
    public func verify(context: RequestContext) throws -> VerifiedPurchases {
        let exchange = try answered(context)
        return try verifying(exchange.request, false, exchange.context)
    }

    /// As ``verify(context:)`` for a restore on a device: where the store can tell it, the answer is the
    /// customer's whole history, not only what the device sent.
    public func restore(context: RequestContext) throws -> VerifiedPurchases {
        let exchange = try answered(context)
        return try verifying(exchange.request, true, exchange.context)
    }

    private func answered(_ context: RequestContext) throws(GatewayError) -> any AnsweredExchange {
        guard let use else { throw .internalError }
        return try use.exchange(for: context)
    }
}
