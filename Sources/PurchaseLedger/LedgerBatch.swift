import struct Foundation.Date

/// Where a batch of transactions came from.
package enum LedgerSource: String, Sendable, CaseIterable {
    case verify
    case restoreSync = "restore-sync"
    case notification
    case download
    /// A free grant made by an operator (`storegate grant`): a press copy, a promo, a goodwill replacement.
    case grant
}

/// The transactions of one verified receipt, recorded together.
package struct LedgerBatch: Sendable {
    package let transactions: [LedgerTransaction]
    package let source: LedgerSource
    /// The request that recorded them, kept for support questions.
    package let requestId: String
    package let recordedAt: Date
    /// What the store expects to be told about these purchases, recorded with them (once: a repeat is kept).
    package let followUps: [StoreFollowUp]
    /// What the store knows these purchases by (digests), recorded with them.
    package let handles: [StoreHandle]

    package init(
        transactions: [LedgerTransaction], source: LedgerSource, requestId: String, recordedAt: Date = Date(),
        followUps: [StoreFollowUp] = [], handles: [StoreHandle] = []
    ) {
        self.handles = handles
        self.transactions = transactions
        self.source = source
        self.requestId = requestId
        self.recordedAt = recordedAt
        self.followUps = followUps
    }

    /// The purchases of this batch: one per key, merging the transactions that share it (the latest
    /// expiry and cancellation win, as Apple's latest verdict is the truth).
    package var purchases: [LedgerTransaction] {
        var byKey: [PurchaseKey: LedgerTransaction] = [:]
        var order: [PurchaseKey] = []
        for transaction in transactions {
            guard var merged = byKey[transaction.purchaseKey] else {
                byKey[transaction.purchaseKey] = transaction
                order.append(transaction.purchaseKey)
                continue
            }
            if (transaction.purchaseDate ?? .distantPast) >= (merged.purchaseDate ?? .distantPast) {
                merged.transactionId = transaction.transactionId
                merged.purchaseDate = transaction.purchaseDate
            }
            merged.expiresDate = [merged.expiresDate, transaction.expiresDate].compactMap { $0 }.max()
            merged.cancellationDate = [merged.cancellationDate, transaction.cancellationDate].compactMap { $0 }.max()
            byKey[transaction.purchaseKey] = merged
        }
        return order.compactMap { byKey[$0] }
    }
}
