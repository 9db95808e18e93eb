import Foundation
import GatewayHandlerAPI
import PurchaseLedger

/// Subscription offers for an app account, from the ledger alone: behind ``OfferSignatures`` (the offers route).
/// The account's purchases in the product's subscription group decide (an introductory offer only for one that
/// never subscribed there; each promotional offer by its audience); the store signs.
package struct OfferDesk: Sendable {
    private let accounts: AccountBinder?
    private let ledger: any PurchaseLedger
    private let catalog: Catalog
    private let rules: OfferRules
    private let signer: any OfferSigning

    package init(
        accounts: AccountBinder?, ledger: any PurchaseLedger, catalog: Catalog, rules: OfferRules,
        signer: any OfferSigning
    ) {
        self.accounts = accounts
        self.ledger = ledger
        self.catalog = catalog
        self.rules = rules
        self.signer = signer
    }

    /// The offers for `productId` of the account `request` is for: 401 `account_required` without one, 404
    /// `unknown_product` for an id that is not an auto-renewable subscription of the catalog.
    package func offers(for request: GatewayRequest, productId: String, context: RequestContext) throws
        -> AccountOffers
    {
        guard let accountId = try accounts?.account(of: request) else { throw GatewayError.accountRequired }
        guard let product = catalog.product(id: productId), product.kind == .autoRenewable else {
            throw GatewayError.unknownProduct
        }
        let held: [StoredPurchase]
        do {
            held = try ledger.holdings(of: accountId)
        } catch {
            throw error.answer("the ledger could not read an account's purchases", logger: context.logger)
        }
        let group = product.subscriptionGroup
        let bought = held.filter { !$0.purchaseKey.isFreeGrant }
        let inGroup = bought.filter { catalog.product(id: $0.productId)?.subscriptionGroup == group }
        let everSubscribed = !inGroup.isEmpty
        let now = Date()
        let active = inGroup.contains { $0.cancellationDate == nil && ($0.expiresDate ?? .distantPast) > now }
        // Apple's signature names the customer by any transaction of theirs: the newest App Store one.
        let customer = bought.filter { PurchaseOrigin.store(of: $0.originalTransactionId) == "app-store" }
            .max { $0.lastSeen < $1.lastSeen }?.latestTransactionId
        let introductory =
            try rules.introductory
            ? AccountOffers.Introductory(
                eligible: !everSubscribed,
                signature: customer.map {
                    try signer.introductoryOfferEligibility(
                        productId: productId, eligible: !everSubscribed, transactionId: $0)
                }) : nil
        let promotional = try rules.promotional.filter {
            $0.productId == productId && $0.audience.admits(everSubscribed: everSubscribed, active: active)
        }.map {
            AccountOffers.Promotional(
                offerId: $0.offerId,
                signature: try signer.promotionalOffer(
                    productId: productId, offerId: $0.offerId, transactionId: customer))
        }
        return AccountOffers(
            accountId: accountId, productId: productId, introductory: introductory, promotional: promotional)
    }
}
