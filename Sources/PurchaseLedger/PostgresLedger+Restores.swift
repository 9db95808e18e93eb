extension PostgresLedger {
    package func recordRestores(_ restores: [Restore]) throws(LedgerError) {
        guard !restores.isEmpty else { return }
        try pool.withConnection { connection throws(LedgerError) in
            try Self.inTransaction(connection) { () throws(LedgerError) in
                for restore in restores {
                    let insert = RestoreTable.insert(restore) { "$\($0)" }
                    try connection.execute(insert.sql, insert.arguments)
                }
            }
        }
    }

    package func restores(environment: String, originalTransactionId: String) throws(LedgerError) -> [Restore] {
        try texts(RestoreTable.select { "$\($0)" }, [environment, originalTransactionId]).compactMap(
            RestoreTable.restore)
    }
}
