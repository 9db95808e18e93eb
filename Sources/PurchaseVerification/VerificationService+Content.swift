import Foundation
import GatewayCore
import PurchaseLedger

extension VerificationService {
    /// The caller's entitlement to `productId`, from the credential in `request`: a receipt or signed
    /// transactions are verified and recorded like any verification, a download token is checked here, and
    /// either way the grant is confirmed against the ledger, so a refund recorded after the token was issued,
    /// or after the receipt or signed transaction was saved, blocks it. A request for an app account claims
    /// the verified purchases for it, as verify does. Throws 401 `receipt_required` without a credential,
    /// 403 `not_entitled` when it does not cover the product.
    func entitlement(to productId: String, for request: GatewayRequest, context: RequestContext) throws
        -> VerifiedEntitlement
    {
        let credential = try Credential(contentRequest: request)
        let account = try accounts?.account(of: request)
        let claimed: (originalTransactionId: String, environment: String)?
        if backends.contains(where: { $0.accepts(credential) }) {
            var verified = try verify(credential, source: .download, context: context)
            if let account { verified = try bind(verified, to: account, context: context) }
            // The answer is the file, so the request line names only the product: the verification's facts
            // get a line of their own (verify and restore-sync put them on their request line).
            context.logger.info("purchases verified", metadata: verified.logMetadata)
            claimed = verified.entitlements.first { $0.productId == productId }.map {
                ($0.originalTransactionId, verified.environment)
            }
        } else if case .downloadToken(let token) = credential {
            guard let claims = tokens?.verify(token) else { throw GatewayError.tokenInvalid }
            claimed = claims.productId == productId ? (claims.originalTransactionId, claims.environment) : nil
        } else {
            throw GatewayError.badRequest("This server cannot verify that kind of purchase.")
        }
        guard let claimed,
            let grant = try ledgerGrant(
                productId, originalTransactionId: claimed.originalTransactionId, environment: claimed.environment,
                context: context)
        else { throw GatewayError.notEntitled }
        return VerifiedEntitlement(grant: grant, service: self)
    }

    /// The grant the ledger supports for `productId` through `originalTransactionId`: a purchase of it, not
    /// cancelled, and for subscriptions a period that has not ended.
    private func ledgerGrant(
        _ productId: String, originalTransactionId: String, environment: String, context: RequestContext
    ) throws(GatewayError) -> EntitlementGrant? {
        let purchases: [StoredPurchase]
        do {
            purchases = try ledger.purchases(environment: environment, originalTransactionId: originalTransactionId)
        } catch {
            throw error.answer("the ledger could not be read for a download", logger: context.logger)
        }
        let now = Date()
        guard
            let current = purchases.first(where: {
                $0.productId == productId && $0.cancellationDate == nil && ($0.expiresDate ?? .distantFuture) > now
            })
        else { return nil }
        return EntitlementGrant(
            productId: productId, originalTransactionId: originalTransactionId, environment: environment,
            expiresAt: current.expiresDate)
    }
}
