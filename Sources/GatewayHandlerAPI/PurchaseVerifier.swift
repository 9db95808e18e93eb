/// The verification service's verify and restore: checks the purchase credential in a request's body with
/// the store, records what the store vouches for, and answers the entitlements it gives (with download
/// tokens for products with content). What `verify` and `restore-sync` are handed.
public struct PurchaseVerifier: HandlerNeeds {
    private let verifying: @Sendable (GatewayRequest, _ restoring: Bool, RequestContext) throws -> VerifiedPurchases

    package init(
        _ verifying: @escaping @Sendable (GatewayRequest, _ restoring: Bool, RequestContext) throws -> VerifiedPurchases
    ) {
        self.verifying = verifying
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<PurchaseVerifier> {
        Provision(try source.provider.purchaseVerifier())
    }

    /// Verifies the receipt, signed transactions or transaction id in `request`'s body (400 without one) and
    /// records its transactions; a request for an app account also claims the purchases for it.
    public func verify(_ request: GatewayRequest, context: RequestContext) throws -> VerifiedPurchases {
        try verifying(request, false, context)
    }

    /// As ``verify(_:context:)`` for a restore on a device: where the store can tell it, the answer is the
    /// customer's whole history, not only what the device sent.
    public func restore(_ request: GatewayRequest, context: RequestContext) throws -> VerifiedPurchases {
        try verifying(request, true, context)
    }
}
