extension PostgresLedger {
    public func originals(of transactionId: String) throws(LedgerError) -> [LedgerOriginal] {
        try texts(PurchaseHistoryQueries.originals { "$\($0)" }, [transactionId]).compactMap(
            PurchaseHistoryQueries.original)
    }

    public func transactions(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredTransaction]
    {
        try texts(PurchaseHistoryQueries.transactions { "$\($0)" }, [environment, originalTransactionId])
            .compactMap(PurchaseHistoryQueries.transaction)
    }

    public func notifications(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredNotification]
    {
        try texts(PurchaseHistoryQueries.notifications { "$\($0)" }, [environment, originalTransactionId])
            .compactMap(PurchaseHistoryQueries.notification)
    }

    private func texts(_ sql: String, _ parameters: [String?]) throws(LedgerError) -> [[String?]] {
        try pool.withConnection { connection throws(LedgerError) in try connection.execute(sql, parameters) }
    }
}
