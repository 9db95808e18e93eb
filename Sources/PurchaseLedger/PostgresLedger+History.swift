import Foundation

extension PostgresLedger {
    package func originals(of transactionId: String) throws(LedgerError) -> [LedgerOriginal] {
        try texts(PurchaseHistoryQueries.originals { "$\($0)" }, [transactionId]).compactMap(
            PurchaseHistoryQueries.original)
    }

    package func transactions(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredTransaction]
    {
        try texts(PurchaseHistoryQueries.transactions { "$\($0)" }, [environment, originalTransactionId])
            .compactMap(PurchaseHistoryQueries.transaction)
    }

    package func notifications(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredNotification]
    {
        try texts(PurchaseHistoryQueries.notifications { "$\($0)" }, [environment, originalTransactionId])
            .compactMap(PurchaseHistoryQueries.notification)
    }

    func texts(_ sql: String, _ parameters: [String?]) throws(LedgerError) -> [[String?]] {
        try pool.withConnection { connection throws(LedgerError) in try connection.execute(sql, parameters) }
    }
}

extension PostgresLedger {
    package func recordBackfill(_ run: BackfillRun) throws(LedgerError) {
        _ = try texts(LedgerTable.backfills.insertStatement { "$\($0)" }, run.row())
    }

    package func notificationsRecordedUntil() throws(LedgerError) -> Date? {
        BackfillTable.date(try texts(BackfillTable.anchor, []))
    }
}
