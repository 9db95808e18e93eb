import Foundation
import GatewayHandlerAPI
import Logging
import PurchaseLedger

/// App accounts' claims to purchases: which account a request is for, and each purchase it proves bound to it
/// in the ledger under the restore policy (or to the account its store data names).
package struct AccountBinder: Sendable {
    private let accounts: AccountSettings
    private let ledger: any PurchaseLedger
    private let catalog: Catalog
    /// Told of each binding, for stores that keep the app's account with the purchase.
    private let stores: StoreBackends
    /// Which family members' access entitles, for the entitlements left once others keep theirs.
    private let familySharing: FamilySharing

    package init(
        accounts: AccountSettings, ledger: any PurchaseLedger, catalog: Catalog, stores: StoreBackends,
        familySharing: FamilySharing
    ) {
        self.familySharing = familySharing
        self.accounts = accounts
        self.ledger = ledger
        self.catalog = catalog
        self.stores = stores
    }

    /// The account `request` is for, if something this deployment trusts says so.
    package func account(of request: GatewayRequest) throws(GatewayError) -> String? {
        try accounts.account(of: request)
    }

    /// Claims each purchase in `verified` for `accountId` under the deployment's restore policy, and leaves out
    /// the entitlements other accounts keep (a product also bought in a purchase of this account's own stays,
    /// through that purchase): 409 `held_by_another_account` when that leaves none of them.
    package func bind(_ verified: VerifiedPurchases, to accountId: String, context: RequestContext)
        throws(GatewayError) -> VerifiedPurchases
    {
        var keptElsewhere: Set<String> = []
        for transaction in Self.purchases(in: verified.transactions) {
            let original = transaction.originalTransactionId
            let claim = AccountClaim(
                environment: verified.environment, originalTransactionId: original, productId: transaction.productId,
                accountId: accountId,
                policy: accounts.policy(
                    environment: verified.environment, kind: catalog.product(id: transaction.productId)?.kind),
                requestId: context.requestId)
            let outcome = try settle(claim, context: context)
            accounts.claims?.count(outcome)
            if !outcome.holds { keptElsewhere.insert(original) }
            switch outcome {
            case .bound, .transferred:
                for backend in stores.backends {
                    backend.purchaseBound(
                        transaction, environment: verified.environment, to: accountId, context: context)
                }
            case .held, .shared, .heldByOthers: break
            }
            if let change = outcome.change(origin: .request), change != .bound {
                context.logger.info(
                    "purchase \(change.rawValue)",
                    metadata: ["account": "\(accountId)", "original_transaction_id": "\(original)"])
            }
        }
        var answer = verified
        // The account's own purchases, for a product whose entitlement named a purchase another account keeps.
        let own = EntitlementRules.entitlements(
            from: verified.transactions.filter { !keptElsewhere.contains($0.originalTransactionId) },
            catalog: catalog, now: Date(), familySharing: familySharing)
        answer.granted = verified.granted.compactMap { entitlement in
            guard keptElsewhere.contains(entitlement.originalTransactionId) else { return entitlement }
            return own.first { $0.productId == entitlement.productId }
        }
        let withheld = verified.entitlements.filter { entitlement in
            !answer.granted.contains { $0.productId == entitlement.productId }
        }
        if !withheld.isEmpty, answer.granted.isEmpty { throw .heldByAnotherAccount }
        answer.accountAnswer = AccountAnswer(
            accountId: accountId, heldByOtherAccounts: withheld.map(\.productId).sorted())
        return answer
    }

    /// Binds each purchase among `transactions` that the store says was made for an app account (its account
    /// token) to that account, unless an account holds it already.
    package func bindByAccountToken(
        _ transactions: [PurchaseTransaction], environment: String, context: RequestContext
    ) throws(GatewayError) {
        for transaction in Self.purchases(in: transactions) {
            guard let token = transaction.accountToken else { continue }
            _ = try settle(
                AccountClaim(
                    environment: environment, originalTransactionId: transaction.originalTransactionId,
                    productId: transaction.productId, accountId: token, policy: .keep, origin: .accountToken,
                    requestId: context.requestId),
                context: context)
        }
    }

    /// The first transaction of each purchase (original transaction) among `transactions`, in original order.
    private static func purchases(in transactions: [PurchaseTransaction]) -> [PurchaseTransaction] {
        var seen: Set<String> = []
        return transactions.filter { seen.insert($0.originalTransactionId).inserted }
    }

    private func settle(_ claim: AccountClaim, context: RequestContext) throws(GatewayError) -> ClaimOutcome {
        do {
            return try ledger.claim(claim)
        } catch {
            throw error.answer("the ledger could not bind a purchase to an account", logger: context.logger)
        }
    }
}
