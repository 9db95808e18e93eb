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
///
/// Each row is kept as a 64-bit fingerprint of all its fields, not the row: 100,000 rows take about 1.5 MiB,
/// where whole rows (a dozen strings and dates each) took about 50 MiB and grew a soak's memory in steps. A
/// changed row has another fingerprint, but for a chance of one in 2^64 per row, and then the only cost is a
/// write skipped that would have changed nothing the ledger keeps (its merge is monotonic).
final class CommittedTransactions: Sendable {
    /// Rows remembered at most.
    let limit: Int
    /// Read by every verify and restore, written only when something new was committed.
    private let fingerprints = ReadWriteLock<Set<Int>>([])

    init(limit: Int = 100_000) {
        self.limit = limit
    }

    /// Whether every row of `batch` was committed before exactly as it is now.
    func containsUnchanged(_ batch: [LedgerTransaction]) -> Bool {
        guard !batch.isEmpty else { return false }
        return fingerprints.read { known in batch.allSatisfy { known.contains($0.hashValue) } }
    }

    /// Remembers `batch` once the ledger has committed it.
    func remember(_ batch: [LedgerTransaction]) {
        fingerprints.write { known in
            if known.count + batch.count > limit { known.removeAll(keepingCapacity: true) }
            for row in batch { known.insert(row.hashValue) }
        }
    }
}
