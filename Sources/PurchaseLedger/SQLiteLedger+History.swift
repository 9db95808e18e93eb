import Foundation
import GRDB

extension SQLiteLedger {
    package func originals(of transactionId: String) throws(LedgerError) -> [LedgerOriginal] {
        try texts(PurchaseHistoryQueries.originals { "?\($0)" }, [transactionId]).compactMap(
            PurchaseHistoryQueries.original)
    }

    package func transactions(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredTransaction]
    {
        try texts(PurchaseHistoryQueries.transactions { "?\($0)" }, [environment, originalTransactionId])
            .compactMap(PurchaseHistoryQueries.transaction)
    }

    package func notifications(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredNotification]
    {
        try texts(PurchaseHistoryQueries.notifications { "?\($0)" }, [environment, originalTransactionId])
            .compactMap(PurchaseHistoryQueries.notification)
    }

    /// The rows of `sql`, every column as text.
    func texts(_ sql: String, _ arguments: [String]) throws(LedgerError) -> [[String?]] {
        try guarded {
            try pool.read { db in
                try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                    (0..<row.count).map { row[$0] }
                }
            }
        }
    }
}

extension SQLiteLedger {
    package func recordBackfill(_ run: BackfillRun) throws(LedgerError) {
        try guarded {
            try pool.write { db in
                try db.execute(
                    sql: LedgerTable.backfills.insertStatement { _ in "?" }, arguments: StatementArguments(run.row()))
            }
        }
    }

    package func notificationsRecordedUntil() throws(LedgerError) -> Date? {
        BackfillTable.date(try texts(BackfillTable.anchor, []))
    }
}
