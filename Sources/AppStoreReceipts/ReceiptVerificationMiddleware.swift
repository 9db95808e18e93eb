import GatewayCore

/// Runs before every content-delivering handler: takes the request's credential (download token or receipt),
/// asks the verifier, and yields the ``VerifiedEntitlement`` the handler requires, or the 401/403 answer.
public struct ReceiptVerificationMiddleware: Sendable {
    public let verifier: any EntitlementVerifier

    public init(verifier: any EntitlementVerifier) {
        self.verifier = verifier
    }

    /// The caller's entitlement to `productId`. Throws 401 `receipt_required` without a credential,
    /// 403 `not_entitled` when the credential does not cover the product, or the verifier's error.
    public func verify(_ request: GatewayRequest, productId: String, context: RequestContext) throws
        -> VerifiedEntitlement
    {
        let credential = try Credential(from: request)
        guard let grant = try verifier.grant(for: credential, productId: productId, context: context),
            grant.productId == productId
        else {
            throw GatewayError.notEntitled
        }
        return VerifiedEntitlement(grant: grant)
    }
}
