import Foundation
import GatewayHandlerAPI
import PurchaseLedger

/// What an app account holds, from the ledger alone: behind ``AccountHoldings`` (the entitlements route).
package struct AccountHoldingsReader: Sendable {
    /// Nil when the config has no `accounts` section: then no request has an account.
    private let accounts: AccountBinder?
    private let ledger: any PurchaseLedger
    private let catalog: Catalog
    private let tokens: DownloadTokens?
    private let familySharing: FamilySharing

    package init(
        accounts: AccountBinder?, ledger: any PurchaseLedger, catalog: Catalog, tokens: DownloadTokens?,
        familySharing: FamilySharing
    ) {
        self.familySharing = familySharing
        self.accounts = accounts
        self.ledger = ledger
        self.catalog = catalog
        self.tokens = tokens
    }

    /// The entitlements of the account `request` is for (401 `account_required` without one), with download
    /// tokens, from the purchases the ledger has bound to it and the free grants it holds: refunds and
    /// revocations already recorded apply.
    package func entitlements(for request: GatewayRequest, context: RequestContext) throws(GatewayError)
        -> AccountEntitlements
    {
        guard let accountId = try accounts?.account(of: request) else { throw .accountRequired }
        let holdings: [StoredPurchase]
        do {
            holdings = try ledger.holdings(of: accountId)
        } catch {
            throw error.answer("the ledger could not read an account's purchases", logger: context.logger)
        }
        let byEnvironment = Dictionary(grouping: holdings, by: \.environment)
        var entitlements: [Entitlement] = []
        let now = Date()
        for environment in byEnvironment.keys.sorted(by: {
            ($0 == "Production" ? 0 : 1, $0) < ($1 == "Production" ? 0 : 1, $1)
        }) {
            let held = byEnvironment[environment] ?? []
            let bought = held.filter { !$0.purchaseKey.isFreeGrant }.map(\.latestTransaction)
            let given = held.filter(\.purchaseKey.isFreeGrant).map(\.latestTransaction)
            let found =
                EntitlementRules.entitlements(
                    from: bought, catalog: catalog, now: now, familySharing: familySharing)
                + EntitlementRules.entitlements(fromGrants: given, catalog: catalog, now: now)
            for var entitlement in found where !entitlements.contains(where: { $0.productId == entitlement.productId })
            {
                if let tokens { entitlement.issueToken(tokens, catalog: catalog, environment: environment, now: now) }
                entitlements.append(entitlement)
            }
        }
        return AccountEntitlements(
            accountId: accountId, entitlements: entitlements.sorted { $0.productId < $1.productId })
    }
}

extension StoredPurchase {
    /// The purchase as its newest transaction, for the entitlement rules.
    fileprivate var latestTransaction: PurchaseTransaction {
        PurchaseTransaction(
            transactionId: latestTransactionId, originalTransactionId: originalTransactionId, productId: productId,
            webOrderLineItemId: nil, purchaseDate: nil, expiresDate: expiresDate, cancellationDate: cancellationDate,
            quantity: 1, familyShared: purchaseKey.isFamilyShared)
    }
}
