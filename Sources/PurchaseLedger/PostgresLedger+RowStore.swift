extension PostgresLedger: LedgerRowStore {
    package func rows(of table: LedgerTable, after key: [String?]?, limit: Int) throws(LedgerError) -> [[String?]] {
        let sql = table.pageQuery(afterKey: key != nil, limit: limit) { "$\($0)" }
        return try pool.withConnection { connection throws(LedgerError) in try connection.execute(sql, key ?? []) }
    }

    package func insert(_ rows: [[String?]], into table: LedgerTable) throws(LedgerError) -> Int {
        let sql = table.insertStatement { "$\($0)" } + " RETURNING 1"
        return try pool.withConnection { connection throws(LedgerError) in
            try Self.inTransaction(connection) { () throws(LedgerError) in
                var added = 0
                for row in rows { added += try connection.execute(sql, row).count }
                if table == .deliveries, added > 0 {
                    // Copied ids came with the rows; new grants must be numbered after them.
                    try connection.execute(
                        "SELECT setval(pg_get_serial_sequence('deliveries', 'id'), (SELECT max(id) FROM deliveries))")
                }
                return added
            }
        }
    }
}
