import Foundation
import GatewayHandlerAPI
import PurchaseLedger

/// docs/ARCHITECTURE.md 7: what a set of verified transactions entitles the buyer to, and how each is keyed in the ledger.
package enum EntitlementRules {
    /// One entitlement per catalog product: non-consumables and free subscriptions without a cancellation;
    /// subscriptions not cancelled whose period ends after `now` (the latest period counts); never
    /// consumables, never products the catalog does not sell, and a family member's access only to the types
    /// `familySharing` grants.
    package static func entitlements(
        from transactions: [PurchaseTransaction], catalog: Catalog, now: Date,
        familySharing: FamilySharing = .everyType
    ) -> [Entitlement] {
        var best: [String: Entitlement] = [:]
        for transaction in transactions where transaction.cancellationDate == nil {
            guard let product = catalog.product(id: transaction.productId),
                !transaction.familyShared || familySharing.grants(product.kind)
            else { continue }
            let candidate = Entitlement(
                productId: product.id, store: PurchaseOrigin.store(of: transaction.originalTransactionId),
                originalTransactionId: transaction.originalTransactionId,
                expiresDate: transaction.expiresDate
            )
            switch product.kind {
            case .consumable:
                continue
            case .nonConsumable, .freeSubscription:
                if best[product.id] == nil { best[product.id] = candidate }
            case .autoRenewable, .nonRenewing:
                guard let expires = transaction.expiresDate, expires > now else { continue }
                if let current = best[product.id]?.expiresDate, current >= expires { continue }
                best[product.id] = candidate
            }
        }
        return best.values.sorted { $0.productId < $1.productId }
    }

    /// One entitlement per catalog product among free grants (`grants`, each its grant's transaction): any kind
    /// of product, until the grant expires or is revoked.
    package static func entitlements(fromGrants grants: [PurchaseTransaction], catalog: Catalog, now: Date)
        -> [Entitlement]
    {
        var best: [String: Entitlement] = [:]
        for grant in grants where grant.cancellationDate == nil && (grant.expiresDate ?? .distantFuture) > now {
            guard catalog.product(id: grant.productId) != nil else { continue }
            if let current = best[grant.productId],
                (current.expiresDate ?? .distantFuture) >= (grant.expiresDate ?? .distantFuture)
            {
                continue
            }
            best[grant.productId] = Entitlement(
                productId: grant.productId, store: PurchaseOrigin.store(of: grant.originalTransactionId),
                originalTransactionId: grant.originalTransactionId,
                expiresDate: grant.expiresDate)
        }
        return best.values.sorted { $0.productId < $1.productId }
    }

    /// The ledger key of `transaction`: its original transaction for products bought once, its web order
    /// line item for subscription periods, and itself for consumables and products the catalog lacks; a family
    /// member's access is kept apart from the buyer's purchase under the same key.
    package static func purchaseKey(of transaction: PurchaseTransaction, catalog: Catalog) -> PurchaseKey {
        let key = ownKey(of: transaction, catalog: catalog)
        return transaction.familyShared ? .familyShared(key) : key
    }

    private static func ownKey(of transaction: PurchaseTransaction, catalog: Catalog) -> PurchaseKey {
        switch catalog.product(id: transaction.productId)?.kind {
        case .nonConsumable, .freeSubscription:
            return .original(transaction.originalTransactionId)
        case .autoRenewable:
            return transaction.webOrderLineItemId.map(PurchaseKey.subscriptionPeriod)
                ?? .transaction(transaction.transactionId)
        case .consumable, .nonRenewing, nil:
            return .transaction(transaction.transactionId)
        }
    }

    /// `transactions` as ledger rows.
    package static func ledgerTransactions(
        _ transactions: [PurchaseTransaction],
        environment: String,
        bundleId: String,
        catalog: Catalog
    ) -> [LedgerTransaction] {
        transactions.map { transaction in
            LedgerTransaction(
                environment: environment,
                bundleId: bundleId,
                productId: transaction.productId,
                transactionId: transaction.transactionId,
                originalTransactionId: transaction.originalTransactionId,
                webOrderLineItemId: transaction.webOrderLineItemId,
                purchaseKey: purchaseKey(of: transaction, catalog: catalog),
                purchaseDate: transaction.purchaseDate,
                expiresDate: transaction.expiresDate,
                cancellationDate: transaction.cancellationDate,
                quantity: transaction.quantity,
                familyShared: transaction.familyShared,
                revocation: transaction.revocation.map {
                    LedgerRevocation(
                        date: $0.date, type: $0.type, percentageMilliunits: $0.percentageMilliunits,
                        quantity: $0.quantity)
                },
                appTransactionId: transaction.appTransactionId,
                appTransactionIdClaimedByApp: transaction.appTransactionIdClaimedByApp
            )
        }
    }
}
