import GRDB

extension SQLiteLedger: LedgerRowStore {
    package func rows(of table: LedgerTable, after key: [String?]?, limit: Int) throws(LedgerError) -> [[String?]] {
        let sql = table.pageQuery(afterKey: key != nil, limit: limit) { _ in "?" }
        return try guarded {
            try pool.read { db in
                try Row.fetchAll(db, sql: sql, arguments: StatementArguments(key ?? [])).map { row in
                    (0..<row.count).map { row[$0] as String? }
                }
            }
        }
    }

    package func insert(_ rows: [[String?]], into table: LedgerTable) throws(LedgerError) -> Int {
        let sql = table.insertStatement { _ in "?" }
        return try guarded {
            try pool.write { db in
                // Copied rows are history: their changes wrote their events in the source already.
                try db.execute(sql: "INSERT INTO ledger_quiet (reason) VALUES ('ledger copy')")
                let statement = try db.cachedStatement(sql: sql)
                let added = try rows.reduce(0) { added, row in
                    try statement.execute(arguments: StatementArguments(row))
                    return added + db.changesCount
                }
                try db.execute(sql: "DELETE FROM ledger_quiet")
                return added
            }
        }
    }
}
