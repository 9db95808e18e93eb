import AppStoreServerAPI
import Foundation
import GatewayHandlerAPI
import PurchaseLedger
import PurchaseVerification

/// The Finish Transaction follow-ups a recorded App Store purchase brings (`apple.server_api.finish_transactions`):
/// one per consumable's or non-consumable's transaction bought within `finish_within_hours` and not revoked, due
/// when recorded, or (`delivered`) once the gateway delivered the product's content. Kept in the ledger with the
/// purchase, so a gateway that stops before Apple heard of it leaves it to the next; named by the transaction, so
/// recording it again adds none.
struct FinishFollowUps: Sendable {
    /// The follow-up's action, as the support timeline and the metrics name it.
    static let action = "finish"

    let policy: TransactionFinishing
    let within: TimeInterval
    let catalog: Catalog?

    /// The follow-ups `transactions` of `app` in `environment` bring.
    func followUps(of transactions: [PurchaseTransaction], environment: String, app: String, now: Date = Date())
        -> [StoreFollowUp]
    {
        transactions.compactMap { transaction in
            guard transaction.cancellationDate == nil, let bought = transaction.purchaseDate,
                now.timeIntervalSince(bought) <= within,
                let product = catalog?.product(store: AppStoreVerification.store, id: transaction.productId),
                product.kind == .consumable || product.kind == .nonConsumable
            else { return nil }
            return StoreFollowUp(
                key: "\(Self.action) \(environment) \(transaction.transactionId)", store: AppStoreVerification.store,
                action: Self.action, environment: environment, originalTransactionId: transaction.originalTransactionId,
                productId: product.id, app: app, storeProductId: transaction.productId,
                subject: transaction.transactionId, afterDelivery: policy == .delivered && product.content != nil)
        }
    }
}

extension StorePurchases {
    /// With the Finish Transaction follow-ups of `finishes`, if the gateway finishes transactions.
    func finishing(_ finishes: FinishFollowUps?) -> StorePurchases {
        guard let finishes else { return self }
        let added = finishes.followUps(of: transactions, environment: environment, app: bundleId)
        guard !added.isEmpty else { return self }
        return StorePurchases(
            status: status, environment: environment, bundleId: bundleId, transactions: transactions,
            logMetadata: logMetadata, followUps: followUps + added, handles: handles)
    }
}
