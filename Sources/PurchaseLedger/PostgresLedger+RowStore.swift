extension PostgresLedger: LedgerRowStore {
    package func rows(of table: LedgerTable, after key: [String?]?, limit: Int) throws(LedgerError) -> [[String?]] {
        let sql = table.pageQuery(afterKey: key != nil, limit: limit) { "$\($0)" }
        return try pool.withConnection { connection throws(LedgerError) in try connection.execute(sql, key ?? []) }
    }

    package func insert(_ rows: [[String?]], into table: LedgerTable) throws(LedgerError) -> Int {
        let sql = table.insertStatement { "$\($0)" } + " RETURNING 1"
        return try pool.withConnection { connection throws(LedgerError) in
            try Self.inTransaction(connection) { () throws(LedgerError) in
                // Copied rows are history: their changes wrote their events in the source already. The row is seen
                // by this transaction alone.
                try connection.execute("INSERT INTO ledger_quiet (reason) VALUES ('ledger copy')")
                var added = 0
                for row in rows { added += try connection.execute(sql, row).count }
                try connection.execute("DELETE FROM ledger_quiet")
                if let column = [LedgerTable.deliveries: "id", .events: "seq"][table], added > 0 {
                    // Copied numbers came with the rows; new rows must be numbered after them.
                    try connection.execute(
                        """
                        SELECT setval(pg_get_serial_sequence('\(table.rawValue)', '\(column)'), \
                        (SELECT max(\(column)) FROM \(table.rawValue)))
                        """)
                }
                return added
            }
        }
    }
}
