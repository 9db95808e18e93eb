import GRDB

extension SQLiteLedger {
    package func recordRestores(_ restores: [Restore]) throws(LedgerError) {
        guard !restores.isEmpty else { return }
        try guarded {
            try pool.write { db in
                for restore in restores {
                    let insert = RestoreTable.insert(restore) { "?\($0)" }
                    try db.execute(sql: insert.sql, arguments: StatementArguments(insert.arguments))
                }
            }
        }
    }

    package func restores(environment: String, originalTransactionId: String) throws(LedgerError) -> [Restore] {
        try texts(RestoreTable.select { "?\($0)" }, [environment, originalTransactionId]).compactMap(
            RestoreTable.restore)
    }
}
