import Foundation
import GatewayCore
import PurchaseLedger

extension VerificationService {
    /// The caller's entitlement to `productId`, from the credential in `request`: a receipt or signed
    /// transactions are verified and recorded like any verification; a download token is checked here,
    /// then against the ledger, so a refund recorded after it was issued blocks it. A request for an app
    /// account claims the verified purchases for it, as verify does. Throws 401
    /// `receipt_required` without a credential, 403 `not_entitled` when it does not cover the product.
    func entitlement(to productId: String, for request: GatewayRequest, context: RequestContext) throws
        -> VerifiedEntitlement
    {
        let credential = try Credential(contentRequest: request)
        let account = try accounts?.account(of: request)
        let grant: EntitlementGrant?
        if backends.contains(where: { $0.accepts(credential) }) {
            var verified = try verify(credential, source: .download, context: context)
            if let account { verified = try bind(verified, to: account, context: context) }
            // The answer is the file, so the request line names only the product: the verification's facts
            // get a line of their own (verify and restore-sync put them on their request line).
            context.logger.info("purchases verified", metadata: verified.logMetadata)
            grant = verified.entitlements.first { $0.productId == productId }.map { entitlement in
                EntitlementGrant(
                    productId: entitlement.productId, originalTransactionId: entitlement.originalTransactionId,
                    environment: verified.environment, expiresAt: entitlement.expiresDate)
            }
        } else if case .downloadToken(let token) = credential {
            grant = try tokenGrant(token, productId: productId, context: context)
        } else {
            throw GatewayError.badRequest("This server cannot verify that kind of purchase.")
        }
        guard let grant, grant.productId == productId else { throw GatewayError.notEntitled }
        return VerifiedEntitlement(grant: grant, service: self)
    }

    /// The grant the ledger still supports for a genuine token: a purchase of that product through that
    /// original transaction, not cancelled, and for subscriptions a period that has not ended.
    private func tokenGrant(_ token: String, productId: String, context: RequestContext) throws(GatewayError)
        -> EntitlementGrant?
    {
        guard let claims = tokens?.verify(token) else { throw .tokenInvalid }
        guard claims.productId == productId else { return nil }
        let purchases: [StoredPurchase]
        do {
            purchases = try ledger.purchases(
                environment: claims.environment, originalTransactionId: claims.originalTransactionId)
        } catch {
            throw error.answer("the ledger could not be read for a token", logger: context.logger)
        }
        let now = Date()
        guard
            let current = purchases.first(where: {
                $0.productId == claims.productId && $0.cancellationDate == nil
                    && ($0.expiresDate ?? .distantFuture) > now
            })
        else { return nil }
        return EntitlementGrant(
            productId: claims.productId, originalTransactionId: claims.originalTransactionId,
            environment: claims.environment, expiresAt: current.expiresDate)
    }
}
