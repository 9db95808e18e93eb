import Foundation
import GatewayHandlerAPI
import Logging
import PurchaseLedger

/// The verification in front of content routes (``ContentGate``): the caller's grant to a product from the
/// request's credential, confirmed against the ledger, and the delivery of that product's content, recorded
/// before any byte goes out.
package struct ContentGrants: ContentGate, CustomReflectable {
    private let stores: StoreBackends
    private let recorder: PurchaseRecorder
    private let accounts: AccountBinder?
    private let tokens: DownloadTokens?
    private let ledger: any PurchaseLedger
    private let deliveries: ContentDeliveries
    /// Called when a delivery made store follow-ups due (a consumable to consume), so the store does them now.
    private let followUpsDue: @Sendable () -> Void

    /// Nothing: it holds the stores' settings (the Apple shared secret), the token issuer and the ledger.
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    package init(
        stores: StoreBackends, recorder: PurchaseRecorder, accounts: AccountBinder?, tokens: DownloadTokens?,
        ledger: any PurchaseLedger, deliveries: ContentDeliveries, followUpsDue: @escaping @Sendable () -> Void = {}
    ) {
        self.followUpsDue = followUpsDue
        self.stores = stores
        self.recorder = recorder
        self.accounts = accounts
        self.tokens = tokens
        self.ledger = ledger
        self.deliveries = deliveries
    }

    /// The caller's grant to `productId`, from the credential in `request`: a receipt or signed transactions
    /// are verified and recorded like any verification, a download token is checked here, and either way the
    /// grant is confirmed against the ledger, so a refund recorded after the token was issued, or after the
    /// receipt or signed transaction was saved, blocks it. A request for an app account claims the verified
    /// purchases for it, as verify does. Throws 401 `receipt_required` without a credential, 403
    /// `not_entitled` when it does not cover the product.
    package func grant(_ productId: String, for request: GatewayRequest, context: RequestContext) throws
        -> ContentGrant
    {
        let credential = try stores.credential(contentRequest: request)
        let account = try accounts?.account(of: request)
        let claimed: (originalTransactionId: String, environment: String)?
        if stores.backend(for: credential) != nil {
            var verified = try recorder.verify(credential, source: .download, context: context)
            if let account, let accounts { verified = try accounts.bind(verified, to: account, context: context) }
            // The answer is the file, so the request line names only the product: the verification's facts
            // get a line of their own (verify and restore-sync put them on their request line).
            context.logger.info("purchases verified", metadata: verified.logMetadata)
            claimed = verified.entitlements.first { $0.productId == productId }.map {
                ($0.originalTransactionId, verified.environment)
            }
        } else if case .downloadToken(let token) = credential {
            guard let claims = tokens?.verify(token) else { throw GatewayError.tokenInvalid }
            claimed =
                claims.productId == productId
                ? (claims.originalTransactionId, claims.environment) : nil
        } else {
            throw GatewayError.badRequest("This server cannot verify that kind of purchase.")
        }
        guard let claimed,
            let grant = try ledgerGrant(
                productId, originalTransactionId: claimed.originalTransactionId, environment: claimed.environment,
                context: context)
        else { throw GatewayError.notEntitled }
        return grant
    }

    /// Records the delivery of `grant`'s product and answers with its content. A server error on the way (a
    /// catalog file missing, the delivery record refused) is recorded as a failed delivery of the purchase: a
    /// refund answer then says the purchase did not arrive because of an outage on our side.
    package func deliver(_ grant: ContentGrant, for request: GatewayRequest, context: RequestContext) throws
        -> GatewayResponse
    {
        do {
            return try deliveries.deliver(grant, for: request, context: context) { contentSHA256 throws(GatewayError) in
                try recordDelivery(of: grant, contentSHA256: contentSHA256, context: context)
            }
        } catch {
            let answered = (error as? GatewayError) ?? .internalError
            if answered.status >= 500 { recordFailure(of: grant, answered, context: context) }
            throw error
        }
    }

    /// Records that `grant`'s download failed with `error`; a ledger that cannot take it is logged, and the
    /// customer's answer is the error either way.
    private func recordFailure(of grant: ContentGrant, _ error: GatewayError, context: RequestContext) {
        do {
            try ledger.recordDeliveryFailure(
                DeliveryFailure(
                    environment: grant.environment, productId: grant.productId,
                    originalTransactionId: grant.originalTransactionId, requestId: context.requestId,
                    status: error.status, reason: "not delivered: \(error.message)"))
        } catch {
            context.logger.error(
                "the ledger could not record a failed download", metadata: ["error": "\(error)"])
        }
    }

    /// Records a content grant before any byte goes out.
    private func recordDelivery(of grant: ContentGrant, contentSHA256: String, context: RequestContext)
        throws(GatewayError)
    {
        do {
            let madeDue = try ledger.recordDelivery(
                Delivery(
                    environment: grant.environment, productId: grant.productId,
                    originalTransactionId: grant.originalTransactionId, contentSHA256: contentSHA256,
                    requestId: context.requestId))
            if madeDue { followUpsDue() }
        } catch {
            throw error.answer("the ledger could not record a download", logger: context.logger)
        }
    }

    /// The grant the ledger supports for `productId` through `originalTransactionId`: a purchase of it, not
    /// cancelled, and for subscriptions a period that has not ended.
    private func ledgerGrant(
        _ productId: String, originalTransactionId: String, environment: String, context: RequestContext
    ) throws(GatewayError) -> ContentGrant? {
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
        return ContentGrant(
            productId: productId, originalTransactionId: originalTransactionId, environment: environment,
            expiresAt: current.expiresDate, exchange: context.exchange)
    }
}
