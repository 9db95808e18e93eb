import Foundation
import GRDB

/// The embedded ledger: one SQLite file in WAL mode, written with `synchronous = FULL` so a committed batch
/// survives a crash of the process or the machine. Batches recorded at the same moment are committed
/// together (``GroupCommit``), each in its own savepoint, so concurrent requests share an fsync without
/// sharing a fate. Readers never wait for the writer; other processes queue behind SQLite's lock for up to
/// `busyTimeout`.
package final class SQLiteLedger: PurchaseLedger {
    let pool: DatabasePool
    private let readers: SQLiteReaders
    private let group: GroupCommit<LedgerWrite, RecordOutcome>

    /// The page cache of each read connection, in KiB (`ledger.read_cache_kib`). SQLite's own default, 2,000
    /// KiB, is what a connection grows to once it has read that many pages: with a read connection per worker
    /// thread, 128 workers held up to 270 MiB on a large ledger; at 256 KiB a connection holds about 315 KiB
    /// (measured with Debian's SQLite 3.40: 120 KiB of its own, then its cache), and pages it lacks come from
    /// the kernel's page cache, shared by all.
    package static let defaultReadCacheKiB = 256

    /// Opens (creating and migrating when needed) the ledger at `path`, whose read connections keep at most
    /// `readCacheKiB` of pages each.
    package init(path: String, busyTimeout: TimeInterval = 5, readCacheKiB: Int = defaultReadCacheKiB)
        throws(LedgerError)
    {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // The pool's readers too; its one writer keeps SQLite's default, for the pages inserts walk.
            if db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = -\(readCacheKiB)") }
        }
        let pool: DatabasePool
        do {
            pool = try Self.open(path, configuration, busyTimeout: busyTimeout)
        } catch {
            throw .unavailable("cannot open \(path): \(Self.describe(error))")
        }
        self.pool = pool
        readers = SQLiteReaders(path: path, busyTimeout: busyTimeout, cacheKiB: readCacheKiB)
        group = GroupCommit { batches throws(LedgerError) in
            do {
                return try pool.write { db in try batches.map { write in try Self.apply(write, in: db) } }
            } catch {
                throw .unavailable(Self.describe(error))
            }
        }
    }

    /// Opens and migrates the file. GRDB reads which migrations were applied before it opens each one's
    /// transaction, so two gateways starting together on a new file can both try one; the loser's transaction
    /// rolls back, and a second pass sees the winner's work. SQLite answers that loser "database is locked" at
    /// once (its busy handler would deadlock a read turning into a write), so such an answer is tried again until
    /// `busyTimeout` has passed: five tries in half a second lost to a winner whose migrations a loaded machine
    /// kept longer (CI's). Other failures get five tries.
    private static func open(_ path: String, _ configuration: Configuration, busyTimeout: TimeInterval) throws
        -> DatabasePool
    {
        let deadline = Date(timeIntervalSinceNow: busyTimeout)
        var pool: DatabasePool?
        var attempt = 0
        while true {
            attempt += 1
            do {
                let opened = try pool ?? DatabasePool(path: path, configuration: configuration)
                pool = opened
                try migrator.migrate(opened)
                return opened
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                Thread.sleep(forTimeInterval: min(0.05 * Double(attempt), 0.5))
            } catch  where attempt < 5 {
                Thread.sleep(forTimeInterval: 0.05 * Double(attempt))
            }
        }
    }

    package func record(_ batch: LedgerBatch) throws(LedgerError) -> RecordOutcome {
        try group.submit(.batch(batch))
    }

    @discardableResult
    package func recordDelivery(_ delivery: Delivery) throws(LedgerError) -> Bool {
        try group.submit(.delivery(delivery)).known > 0
    }

    package func recordNotification(_ notification: LedgerNotification) throws(LedgerError) -> Bool {
        try group.submit(.notification(notification)).recorded == 1
    }

    package func deliveries(environment: String, originalTransactionId: String) throws(LedgerError) -> [Delivery] {
        try guarded {
            try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT * FROM deliveries WHERE environment = ? AND original_transaction_id = ? ORDER BY id
                        """,
                    arguments: [environment, originalTransactionId]
                ).map(Self.delivery)
            }
        }
    }

    /// What one caller asked the group commit to write.
    private enum LedgerWrite: Sendable {
        case batch(LedgerBatch)
        /// Answered as recorded 1, known the store follow-ups it made due.
        case delivery(Delivery)
        /// Answered as recorded 1 when new, known 1 when a repeat.
        case notification(LedgerNotification)
    }

    private static func apply(_ write: LedgerWrite, in db: Database) throws -> Result<RecordOutcome, LedgerError> {
        switch write {
        case .batch(let batch):
            return try record(batch, in: db)
        case .delivery(let delivery):
            try insertDelivery(delivery, db: db)
            // `known` counts the follow-ups the delivery made due.
            let due = try Row.fetchAll(
                db.cachedStatement(sql: StoreFollowUpTable.delivered { "?\($0)" }),
                arguments: [
                    delivery.environment, delivery.originalTransactionId, LedgerTime.text(delivery.deliveredAt),
                ])
            return .success(RecordOutcome(recorded: 1, known: due.count))
        case .notification(let notification):
            return try record(notification, in: db)
        }
    }

    /// Records one batch of a group inside its own savepoint: a batch that fails leaves no trace and fails
    /// alone.
    static func record(_ batch: LedgerBatch, in db: Database) throws -> Result<RecordOutcome, LedgerError> {
        var outcome = Result<RecordOutcome, LedgerError>.failure(.unavailable("not recorded"))
        do {
            try db.inSavepoint {
                // Transactions first: a purchase's event reads its transaction's revocation.
                for transaction in batch.transactions {
                    try upsertTransaction(transaction, batch: batch, db: db)
                }
                var recorded = 0
                let purchases = batch.purchases
                for purchase in purchases {
                    if try insertPurchase(purchase, batch: batch, db: db) {
                        recorded += 1
                    } else {
                        try updatePurchase(purchase, batch: batch, db: db)
                    }
                }
                for followUp in batch.followUps {
                    try db.cachedStatement(sql: LedgerTable.storeFollowUps.insertStatement { _ in "?" })
                        .execute(arguments: StatementArguments(followUp.row()))
                }
                for handle in batch.handles {
                    try db.cachedStatement(sql: LedgerTable.storeHandles.insertStatement { _ in "?" })
                        .execute(arguments: StatementArguments(handle.row(at: batch.recordedAt)))
                }
                outcome = .success(RecordOutcome(recorded: recorded, known: purchases.count - recorded))
                return .commit
            }
        } catch let error as DatabaseError
            where error.resultCode != .SQLITE_BUSY && error.resultCode != .SQLITE_FULL
            && error.resultCode != .SQLITE_IOERR
        {
            return .failure(.unavailable(describe(error)))
        }
        return outcome
    }

    package func purchases(environment: String, originalTransactionId: String) throws(LedgerError) -> [StoredPurchase] {
        try guarded {
            // A token download runs this on every request: prepared once per connection.
            try readers.read { db in
                try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT \(Self.storedPurchaseColumns) FROM purchases
                            WHERE environment = ? AND original_transaction_id = ?
                            ORDER BY coalesce(expires_date_ms, purchase_date_ms, 0) DESC, purchase_key
                            """),
                    arguments: [environment, originalTransactionId]
                ).map(Self.storedPurchase)
            }
        }
    }

    package func counts() throws(LedgerError) -> LedgerCounts {
        try guarded {
            try pool.read { db in
                LedgerCounts(
                    purchases: try Int.fetchOne(db, sql: "SELECT count(*) FROM purchases") ?? 0,
                    transactions: try Int.fetchOne(db, sql: "SELECT count(*) FROM transactions") ?? 0
                )
            }
        }
    }

    package func checkHealth() throws(LedgerError) {
        try guarded { try pool.read { db in _ = try Int.fetchOne(db, sql: "SELECT 1") } }
    }

    func guarded<T>(_ body: () throws -> T) throws(LedgerError) -> T {
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
