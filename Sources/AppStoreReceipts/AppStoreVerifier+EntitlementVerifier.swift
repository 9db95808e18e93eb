import GatewayCore

extension AppStoreVerifier: EntitlementVerifier {
    /// A receipt is verified with Apple (through the cache) and recorded; download tokens are not issued
    /// by this build yet, so every token is refused.
    public func grant(for credential: Credential, productId: String, context: RequestContext) throws
        -> EntitlementGrant?
    {
        switch credential {
        case .downloadToken:
            throw GatewayError.tokenInvalid
        case .receipt(let receiptData):
            let verified = try verify(
                receiptData: receiptData, excludeOldTransactions: false, source: .download, context: context)
            guard let entitlement = verified.entitlements.first(where: { $0.productId == productId }) else {
                return nil
            }
            return EntitlementGrant(
                productId: entitlement.productId,
                originalTransactionId: entitlement.originalTransactionId,
                environment: verified.environment,
                expiresAt: entitlement.expiresDate
            )
        }
    }
}
