import GatewayHandlerAPI
import PurchaseLedger

/// The `ledger` section: where the ledger lives (`url`, default `sqlite:ledger.sqlite` beside the config)
/// and how many connections a PostgreSQL ledger keeps (`pool_size`).
package enum LedgerSettings {
    /// Opens the ledger the section names; a problem is reported at `ledger.url` and thrown.
    package static func open(_ section: ConfigReader) throws(ConfigProblems) -> any PurchaseLedger {
        let url = section.string("url", default: "sqlite:ledger.sqlite")
        do throws(LedgerError) {
            return try LedgerLocation(url: url, baseDirectory: section.baseDirectory)
                .open(
                    poolSize: section.int("pool_size", default: 16, in: 1...1024),
                    readCacheKiB: section.int(
                        "read_cache_kib", default: SQLiteLedger.defaultReadCacheKiB, in: 16...1_048_576))
        } catch {
            section.report("url", error.reason)
            throw ConfigProblems([])
        }
    }
}
