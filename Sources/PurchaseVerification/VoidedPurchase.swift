import Foundation

/// A purchase a store reports voided (refunded, charged back, revoked) in a period, by the handle the ledger
/// knows it by (``StorePurchases/handles``), for a backfill to end where the ledger has it.
package struct VoidedPurchase: Sendable, Equatable {
    package let store: String
    package let handle: String
    package let voidedAt: Date

    package init(store: String, handle: String, voidedAt: Date) {
        self.store = store
        self.handle = handle
        self.voidedAt = voidedAt
    }
}
