import Foundation
import GatewayHandlerAPI
import PurchaseLedger

/// Subscription offers for an app account, from the ledger alone: behind ``OfferSignatures`` (the offers route).
/// The account's purchases in the product's subscription group, in `offers.environment`, decide (each promotional
/// offer by its audience); the store signs. The introductory offer is signed only to refuse it: Apple's own rule
/// (per Apple Account, which the gateway cannot see past app accounts) decides when the gateway sees no reason to
/// refuse, as a signed allowance would let one Apple Account take the offer again through another app account.
package struct OfferDesk: Sendable {
    private let accounts: AccountBinder?
    private let ledger: any PurchaseLedger
    private let catalog: Catalog
    private let rules: OfferRules
    private let familySharing: FamilySharing
    private let signer: any OfferSigning

    package init(
        accounts: AccountBinder?, ledger: any PurchaseLedger, catalog: Catalog, rules: OfferRules,
        familySharing: FamilySharing, signer: any OfferSigning
    ) {
        self.accounts = accounts
        self.ledger = ledger
        self.catalog = catalog
        self.rules = rules
        self.familySharing = familySharing
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
        let history: SubscriptionHistory
        let customer: String?
        do {
            let bought = try ledger.holdings(of: accountId).filter {
                $0.environment == rules.environment && !$0.purchaseKey.isFreeGrant
                    && PurchaseOrigin.store(of: $0.originalTransactionId) == "app-store"
                    && (!$0.purchaseKey.isFamilyShared || familySharing.grants(.autoRenewable))
            }
            history = try SubscriptionHistory(
                bought.filter { Self.group(of: $0.productId, in: catalog) == Self.group(of: productId, in: catalog) },
                ledger: ledger, now: Date())
            // Apple's signature names the customer by any transaction of theirs: the newest the ledger recorded.
            customer = bought.max { $0.lastSeen < $1.lastSeen }?.latestTransactionId
        } catch {
            throw error.answer("the ledger could not read an account's purchases", logger: context.logger)
        }
        let introductory =
            try rules.introductory
            ? AccountOffers.Introductory(
                eligible: !history.everSubscribed,
                signature: history.everSubscribed
                    ? customer.map {
                        try signer.introductoryOfferEligibility(
                            productId: productId, eligible: false, transactionId: $0)
                    } : nil) : nil
        let promotional = try rules.promotional.filter {
            $0.productId == productId && $0.audience.admits(history)
        }.map {
            AccountOffers.Promotional(
                offerId: $0.offerId,
                signature: try signer.promotionalOffer(
                    productId: productId, offerId: $0.offerId, transactionId: customer))
        }
        return AccountOffers(
            accountId: accountId, productId: productId, introductory: introductory, promotional: promotional)
    }

    /// The subscription group `productId` counts in: the catalog's `group` of an auto-renewable subscription, else
    /// the product alone (kept apart from group names); nil for anything that is not an auto-renewable
    /// subscription.
    private static func group(of productId: String, in catalog: Catalog) -> String? {
        guard let product = catalog.product(id: productId), product.kind == .autoRenewable else { return nil }
        return product.subscriptionGroup.map { "group:\($0)" } ?? "product:\(product.id)"
    }
}
