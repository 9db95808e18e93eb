import GatewayConcurrency
import GatewayHandlerAPI
import PurchaseLedger

/// The transactions this service has committed to the ledger, as it committed them. A verify or restore
/// whose transactions are all here unchanged learns nothing new, so it is answered without a write
/// transaction: recording it again would only move `last_seen`, which therefore means "when the gateway
/// last recorded something new about the purchase", not "when a device last showed it" (docs/API.md).
///
/// Safe to skip because the ledger's merge is monotonic (a cancellation once seen is kept, expiry only
/// grows): whatever another gateway or a notification wrote since, recording these rows again would change
/// nothing but `last_seen`. Bounded: past ``limit`` rows it starts afresh, costing one write per purchase.
final class CommittedTransactions: Sendable {
    private struct Key: Hashable {
        let environment: String
        let transactionId: String
    }

    /// Rows remembered at most (a few hundred bytes each).
    let limit: Int
    /// Read by every verify and restore, written only when something new was committed.
    private let rows = ReadWriteLock<[Key: LedgerTransaction]>([:])

    init(limit: Int = 100_000) {
        self.limit = limit
    }

    /// Whether every row of `batch` was committed before exactly as it is now.
    func containsUnchanged(_ batch: [LedgerTransaction]) -> Bool {
        guard !batch.isEmpty else { return false }
        return rows.read { rows in
            batch.allSatisfy { rows[Key(environment: $0.environment, transactionId: $0.transactionId)] == $0 }
        }
    }

    /// Remembers `batch` once the ledger has committed it.
    func remember(_ batch: [LedgerTransaction]) {
        rows.write { rows in
            if rows.count + batch.count > limit { rows.removeAll(keepingCapacity: true) }
            for row in batch { rows[Key(environment: row.environment, transactionId: row.transactionId)] = row }
        }
    }
}
