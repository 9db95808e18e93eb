import Foundation
import GatewayCore
import PurchaseLedger

extension VerificationService {
    /// Claims each purchase in `verified` for `accountId` under the deployment's restore policy, and leaves out
    /// the entitlements other accounts keep: 409 `held_by_another_account` when that leaves none of them.
    func bind(_ verified: VerifiedPurchases, to accountId: String, context: RequestContext) throws(GatewayError)
        -> VerifiedPurchases
    {
        guard let accounts else { return verified }
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
            if !outcome.holds { keptElsewhere.insert(original) }
            switch outcome {
            case .bound, .transferred:
                for backend in backends {
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
        let withheld = verified.entitlements.filter { keptElsewhere.contains($0.originalTransactionId) }
        if !withheld.isEmpty, withheld.count == verified.entitlements.count { throw .heldByAnotherAccount }
        answer.entitlements.removeAll { keptElsewhere.contains($0.originalTransactionId) }
        answer.account = AccountAnswer(accountId: accountId, heldByOtherAccounts: withheld.map(\.productId).sorted())
        return answer
    }

    /// Binds each purchase among `transactions` that the store says was made for an app account (its account
    /// token) to that account, unless an account holds it already; when accounts are configured.
    func bindByAccountToken(_ transactions: [PurchaseTransaction], environment: String, context: RequestContext)
        throws(GatewayError)
    {
        guard accounts != nil else { return }
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

/// What an app account holds now, from the ledger alone.
public struct AccountEntitlements: Sendable {
    public let accountId: String
    /// Production purchases first; a product held in both environments is answered once, from production.
    public let entitlements: [Entitlement]
}

extension VerificationService {
    /// The entitlements of the account `request` is for (401 `account_required` without one), with download
    /// tokens, from the purchases the ledger has bound to it: refunds and revocations already recorded apply.
    public func entitlements(for request: GatewayRequest, context: RequestContext) throws(GatewayError)
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
            let transactions = (byEnvironment[environment] ?? []).map(\.latestTransaction)
            for var entitlement in EntitlementRules.entitlements(from: transactions, catalog: catalog, now: now)
            where !entitlements.contains(where: { $0.productId == entitlement.productId }) {
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
            quantity: 1)
    }
}
