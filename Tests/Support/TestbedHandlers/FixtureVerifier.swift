import AppStoreReceipts
import GatewayCore

/// A verifier for tests of the verification slot: the token `grant:<product>` proves that product,
/// `other` proves nothing, anything else is rejected as a bad token.
public struct FixtureVerifier: EntitlementVerifier {
    public init() {}

    public func grant(for credential: Credential, productId: String, context: RequestContext) throws
        -> EntitlementGrant?
    {
        switch credential {
        case .downloadToken(let token) where token.hasPrefix("grant:"):
            return EntitlementGrant(
                productId: String(token.dropFirst(6)),
                originalTransactionId: "1000000000000001",
                environment: "Sandbox",
                expiresAt: nil
            )
        case .downloadToken("other"), .receipt, .signedTransactions:
            return nil
        case .downloadToken:
            throw GatewayError.badRequest("unknown fixture token")
        }
    }
}
