/// The verification service's verify and restore: checks the purchase credential in the body of the request
/// being answered with the store, records what the store vouches for, and answers the entitlements it gives
/// (with download tokens for products with content). What `verify` and `restore-sync` are handed.
public struct PurchaseVerifier: HandedOutNeeds {
    private var verifying:
        RouteBound<@Sendable (GatewayRequest, _ restoring: Bool, RequestContext) throws -> VerifiedPurchases>

    package init(
        _ verifying: @escaping @Sendable (GatewayRequest, _ restoring: Bool, RequestContext) throws -> VerifiedPurchases
    ) {
        self.verifying = RouteBound(verifying)
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<PurchaseVerifier> {
        var verifier = try source.provider.purchaseVerifier()
        verifier.verifying = verifier.verifying.bound(to: source)
        return Provision(verifier)
    }

    /// Verifies the receipt, signed transactions or transaction id in the body of the request `context` belongs
    /// to (400 without one) and records its transactions; a request for an app account also claims the
    /// purchases for it.
    public func verify(context: RequestContext) throws -> VerifiedPurchases {
        let (verify, exchange) = try verifying.serving(context)
        return try verify(exchange.request, false, exchange.context)
    }

    /// As ``verify(context:)`` for a restore on a device: where the store can tell it, the answer is the
    /// customer's whole history, not only what the device sent.
    public func restore(context: RequestContext) throws -> VerifiedPurchases {
        let (verify, exchange) = try verifying.serving(context)
        return try verify(exchange.request, true, exchange.context)
    }
}
