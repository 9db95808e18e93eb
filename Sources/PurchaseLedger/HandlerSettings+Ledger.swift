import GatewayCore

extension HandlerSettings {
    /// The ledger named by `ledger.url` (default `sqlite:ledger.sqlite` beside the config), opened once per
    /// load and shared by every handler of that load. Problems are reported as config problems at `ledger.url`.
    public func ledger() throws -> any PurchaseLedger {
        try shared(Self.ledgerKey) {
            let scope = config.scoped("ledger")
            let url = scope.string("url", default: "sqlite:ledger.sqlite")
            metrics.declare([.ledgerUnavailable])
            do throws(LedgerError) {
                return try LedgerLocation(url: url, baseDirectory: config.baseDirectory)
                    .open(poolSize: scope.int("pool_size", default: 16, in: 1...1024))
            } catch {
                scope.report("url", error.reason)
                throw ConfigProblems([])
            }
        }
    }

    /// The ledger of this load if a handler opened one, without opening it.
    public var openedLedger: (any PurchaseLedger)? { existing(Self.ledgerKey) }

    private static let ledgerKey = SharedKey<any PurchaseLedger>("PurchaseLedger.ledger")
}
