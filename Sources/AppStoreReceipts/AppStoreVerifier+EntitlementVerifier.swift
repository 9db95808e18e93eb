import Foundation
import GatewayCore
import PurchaseLedger

extension AppStoreVerifier: EntitlementVerifier {
    /// A receipt is verified with Apple (through the cache) and recorded; signed transactions are verified
    /// here and recorded. A download token is checked
    /// without Apple, then against the ledger, so a refund recorded after the token was issued blocks it.
    public func grant(for credential: Credential, productId: String, context: RequestContext) throws
        -> EntitlementGrant?
    {
        switch credential {
        case .downloadToken(let token):
            guard let claims = tokens?.verify(token) else { throw GatewayError.tokenInvalid }
            guard claims.productId == productId else { return nil }
            return try ledgerGrant(for: claims, context: context)
        case .receipt(let receiptData):
            let verified = try verify(
                receiptData: receiptData,
                excludeOldTransactions: false,
                source: .download,
                context: context
            )
            return Self.grant(of: productId, in: verified)
        case .signedTransactions(let signed):
            return Self.grant(
                of: productId, in: try verify(signedTransactions: signed, source: .download, context: context))
        }
    }

    private static func grant(of productId: String, in verified: VerifiedReceipt) -> EntitlementGrant? {
        guard let entitlement = verified.entitlements.first(where: { $0.productId == productId }) else { return nil }
        return EntitlementGrant(
            productId: entitlement.productId,
            originalTransactionId: entitlement.originalTransactionId,
            environment: verified.environment,
            expiresAt: entitlement.expiresDate
        )
    }

    /// The grant the ledger still supports for a token's claims: a purchase of that product through that
    /// original transaction, not cancelled, and for subscriptions a period that has not ended.
    private func ledgerGrant(for claims: DownloadTokens.Claims, context: RequestContext) throws -> EntitlementGrant? {
        let purchases: [StoredPurchase]
        do {
            purchases = try ledger.purchases(
                environment: claims.environment,
                originalTransactionId: claims.originalTransactionId
            )
        } catch {
            context.logger.error("the ledger could not be read for a token", metadata: ["reason": "\(error.reason)"])
            throw GatewayError.ledgerUnavailable(retryAfterSeconds: 2)
        }
        let now = Date()
        guard
            let current = purchases.first(where: {
                $0.productId == claims.productId && $0.cancellationDate == nil
                    && ($0.expiresDate ?? .distantFuture) > now
            })
        else { return nil }
        return EntitlementGrant(
            productId: claims.productId,
            originalTransactionId: claims.originalTransactionId,
            environment: claims.environment,
            expiresAt: current.expiresDate
        )
    }

    /// `verified`'s entitlements as API.md shows them, with a fresh download token for each product that
    /// has content when tokens are configured.
    public func entitlementsJSON(for verified: VerifiedReceipt) -> [VerifiedReceipt.EntitlementJSON] {
        verified.entitlements.map { entitlement in
            guard let tokens, catalog.product(id: entitlement.productId)?.content != nil else {
                return VerifiedReceipt.EntitlementJSON(entitlement: entitlement, token: nil)
            }
            let token = tokens.issue(
                productId: entitlement.productId,
                originalTransactionId: entitlement.originalTransactionId,
                environment: verified.environment
            )
            return VerifiedReceipt.EntitlementJSON(entitlement: entitlement, token: token)
        }
    }
}
