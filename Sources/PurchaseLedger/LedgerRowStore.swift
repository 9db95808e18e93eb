/// A ledger whose rows can be read and written table by table, as text: what `storegate ledger copy` needs
/// to move a ledger from one store to another (SQLite to PostgreSQL when one host is no longer enough).
///
/// Contract: `rows` returns at most `limit` rows of `table` in primary-key order, starting after `key` (the
/// key of the last row of the previous page) or at the start; `insert` adds `rows` in one transaction, keeps
/// any row whose key is already present, and returns how many it added.
package protocol LedgerRowStore: Sendable {
    func rows(of table: LedgerTable, after key: [String?]?, limit: Int) throws(LedgerError) -> [[String?]]
    func insert(_ rows: [[String?]], into table: LedgerTable) throws(LedgerError) -> Int
}

/// What a copy did to one table.
package struct CopiedTable: Sendable, Equatable {
    package let table: LedgerTable
    /// Rows read from the source.
    package let read: Int
    /// Rows the target did not have yet.
    package let added: Int
}

extension LedgerRowStore {
    /// Copies every row of this ledger into `target`, a page at a time, table by table. Rows the target
    /// already has are left as they are, so a copy interrupted half-way can simply be run again.
    package func copy(into target: any LedgerRowStore, pageSize: Int = 1000) throws(LedgerError) -> [CopiedTable] {
        var copied: [CopiedTable] = []
        for table in LedgerTable.allCases {
            var read = 0
            var added = 0
            var after: [String?]?
            while true {
                let page = try rows(of: table, after: after, limit: pageSize)
                guard let last = page.last else { break }
                read += page.count
                added += try target.insert(page, into: table)
                after = table.key(of: last)
            }
            copied.append(CopiedTable(table: table, read: read, added: added))
        }
        return copied
    }
}
