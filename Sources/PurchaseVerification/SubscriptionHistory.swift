import Foundation
import PurchaseLedger

/// An account's subscription in one group, as the ledger tells it, for the audiences of offers.
struct SubscriptionHistory {
    /// It bought a period in the group, refunded or not: no introductory offer.
    let everSubscribed: Bool
    /// It had a period the store did not take back.
    let hadPeriod: Bool
    /// A period runs now, or the store is still collecting the renewal (billing retry, grace period): still a
    /// subscriber, never a lapsed one.
    let active: Bool

    /// The history of `purchases` (the account's, in one group), reading the renewals of those that ended.
    init(_ purchases: [StoredPurchase], ledger: any PurchaseLedger, now: Date) throws(LedgerError) {
        everSubscribed = !purchases.isEmpty
        let kept = purchases.filter { $0.cancellationDate == nil }
        hadPeriod = !kept.isEmpty
        var active = kept.contains { ($0.expiresDate ?? .distantPast) > now }
        for original in Set(kept.map(\.originalTransactionId)) where !active {
            let environment = kept.first { $0.originalTransactionId == original }?.environment ?? ""
            let latest = try ledger.renewals(environment: environment, originalTransactionId: original).last
            active = latest?.inBillingRetry == true || (latest?.gracePeriodExpires ?? .distantPast) > now
        }
        self.active = active
    }
}
