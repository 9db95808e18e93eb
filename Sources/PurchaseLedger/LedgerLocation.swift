/// Where `ledger.url` says the ledger lives.
package enum LedgerLocation: Sendable, Equatable {
    /// An SQLite file (the embedded default).
    case sqlite(path: String)
    /// A PostgreSQL server.
    case postgres(url: String)

    /// Parses `sqlite:NAME` (relative to `baseDirectory`), `sqlite:///absolute/path` or `postgres://...`.
    package init(url: String, baseDirectory: String) throws(LedgerError) {
        if url.hasPrefix("sqlite://") {
            let path = String(url.dropFirst("sqlite://".count))
            guard path.hasPrefix("/"), path.count > 1 else {
                throw .unsupportedURL(
                    "sqlite:// must be followed by an absolute path, as in sqlite:///var/lib/storegate/ledger.sqlite")
            }
            self = .sqlite(path: path)
        } else if url.hasPrefix("sqlite:") {
            let name = String(url.dropFirst("sqlite:".count))
            guard !name.isEmpty else { throw .unsupportedURL("sqlite: needs a file name, as in sqlite:ledger.sqlite") }
            self = .sqlite(path: name.hasPrefix("/") ? name : baseDirectory + "/" + name)
        } else if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            self = .postgres(url: url)
        } else {
            throw .unsupportedURL("must start with sqlite: or postgres://")
        }
    }
}

extension LedgerLocation {
    /// Opens the ledger here, creating and migrating it when needed: a PostgreSQL ledger with `poolSize`
    /// connections, an SQLite one whose read connections keep at most `readCacheKiB` of pages each.
    package func open(poolSize: Int = 16, readCacheKiB: Int = SQLiteLedger.defaultReadCacheKiB) throws(LedgerError)
        -> any PurchaseLedger & LedgerRowStore
    {
        switch self {
        case .sqlite(let path): return try SQLiteLedger(path: path, readCacheKiB: readCacheKiB)
        case .postgres(let url): return try PostgresLedger(url: url, poolSize: poolSize)
        }
    }
}
