import GatewayCore

/// A way to check a credential: the App Store's verifyReceipt, signed download tokens, and later local
/// signature checks. Verifiers are plugged into ``ReceiptVerificationMiddleware``.
///
/// Contract: return the grant for `productId` when the credential proves it, nil when the credential is
/// genuine but does not cover that product (answered 403 `not_entitled`). Throw ``GatewayError`` for a
/// credential that is invalid (401/422) or a verdict that cannot be had now (503). Must respect
/// `context.deadline`.
public protocol EntitlementVerifier: Sendable {
    func grant(for credential: Credential, productId: String, context: RequestContext) throws -> EntitlementGrant?
}
