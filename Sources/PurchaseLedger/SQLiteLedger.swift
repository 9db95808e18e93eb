import Foundation
import GRDB

/// The embedded ledger: one SQLite file in WAL mode, written with `synchronous = FULL` so a committed batch
/// survives a crash of the process or the machine. Readers never wait for the writer; writers (threads or
/// other processes) queue behind SQLite's lock for up to `busyTimeout`.
public final class SQLiteLedger: PurchaseLedger {
    private let pool: DatabasePool

    /// Opens (creating and migrating when needed) the ledger at `path`.
    public init(path: String, busyTimeout: TimeInterval = 5) throws(LedgerError) {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch {
            throw .unavailable("cannot open \(path): \(Self.describe(error))")
        }
    }

    public func record(_ batch: LedgerBatch) throws(LedgerError) -> RecordOutcome {
        try guarded {
            try pool.write { db in
                var recorded = 0
                for purchase in batch.purchases {
                    if try Self.insertPurchase(purchase, batch: batch, db: db) {
                        recorded += 1
                    } else {
                        try Self.updatePurchase(purchase, batch: batch, db: db)
                    }
                }
                for transaction in batch.transactions {
                    try Self.upsertTransaction(transaction, batch: batch, db: db)
                }
                return RecordOutcome(recorded: recorded, known: batch.purchases.count - recorded)
            }
        }
    }

    public func purchases(environment: String, originalTransactionId: String) throws(LedgerError) -> [StoredPurchase] {
        try guarded {
            try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT * FROM purchases WHERE environment = ? AND original_transaction_id = ?
                        ORDER BY coalesce(expires_date_ms, purchase_date_ms, 0) DESC, purchase_key
                        """,
                    arguments: [environment, originalTransactionId]
                ).map(Self.storedPurchase)
            }
        }
    }

    public func counts() throws(LedgerError) -> LedgerCounts {
        try guarded {
            try pool.read { db in
                LedgerCounts(
                    purchases: try Int.fetchOne(db, sql: "SELECT count(*) FROM purchases") ?? 0,
                    transactions: try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions") ?? 0
                )
            }
        }
    }

    public func checkHealth() throws(LedgerError) {
        try guarded { try pool.read { db in _ = try Int.fetchOne(db, sql: "SELECT 1") } }
    }

    private func guarded<T>(_ body: () throws -> T) throws(LedgerError) -> T {
        do {
            return try body()
        } catch {
            throw .unavailable(Self.describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "SQLite \(error.resultCode): \(error.message ?? "no message")"
        }
        return "\(error)"
    }
}
