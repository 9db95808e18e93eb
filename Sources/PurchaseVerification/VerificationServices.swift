import CoreMetrics
import Foundation
import GatewayHandlerAPI
import Logging
import PurchaseLedger
import Synchronization

/// The verification services of one load, each a job of its own: verify and record, account bindings and
/// holdings, content grants, notifications, backfills, support lookups, and the stores' work beside requests.
/// Built once per load from the binary's store modules, the catalog, the ledger and the `tokens`, `accounts`
/// and `family_sharing` sections, and shared by every route of the load, so they share caches and connections.
package final class VerificationServices: Sendable {
    package let stores: StoreBackends
    package let recorder: PurchaseRecorder
    package let accounts: AccountBinder?
    package let holdings: AccountHoldingsReader
    package let notifications: NotificationRecorder
    package let backfiller: NotificationBackfiller
    package let lookup: PurchaseLookup
    package let grants: FreeGrants
    private let ledger: any PurchaseLedger
    private let catalog: Catalog
    private let tokens: DownloadTokens?
    private let familySharing: FamilySharing
    /// The stores' work beside requests, once a serving gateway started it.
    private let background = RunningWork()

    /// The services of a load whose config is `config` (whole), asking the backends of `stores`. Problems are
    /// reported in `config`.
    package init(
        config: ConfigReader, stores: StoreBackends, catalog: Catalog, ledger: any PurchaseLedger,
        tokens: DownloadTokens?, metricsFactory: any MetricsFactory
    ) {
        let familySharing = FamilySharing(section: config.scoped("family_sharing"))
        let accounts =
            config.hasSection("accounts")
            ? AccountBinder(
                accounts: AccountSettings(section: config.scoped("accounts"), metricsFactory: metricsFactory),
                ledger: ledger, catalog: catalog, stores: stores, familySharing: familySharing)
            : nil
        let notifications = NotificationRecorder(
            stores: stores, catalog: catalog, ledger: ledger, accounts: accounts,
            evidenceRequested: { [background] in background.wake() })
        self.stores = stores
        self.accounts = accounts
        self.notifications = notifications
        self.familySharing = familySharing
        recorder = PurchaseRecorder(
            stores: stores, catalog: catalog, ledger: ledger, tokens: tokens, accounts: accounts,
            familySharing: familySharing, followUpsRecorded: { [background] in background.wake() })
        holdings = AccountHoldingsReader(
            accounts: accounts, ledger: ledger, catalog: catalog, tokens: tokens, familySharing: familySharing)
        backfiller = NotificationBackfiller(stores: stores, notifications: notifications, ledger: ledger)
        lookup = PurchaseLookup(stores: stores, ledger: ledger)
        grants = FreeGrants(ledger: ledger, catalog: catalog, accountsConfigured: accounts != nil)
        self.ledger = ledger
        self.catalog = catalog
        self.tokens = tokens
    }

    /// The offers desk under the `offers` section (`section`, problems reported there), signing with the first
    /// store that signs offers; nil when none does.
    package func offerDesk(_ section: ConfigReader) -> OfferDesk? {
        guard let signer = stores.backends.lazy.compactMap(\.offerSigning).first else { return nil }
        return OfferDesk(
            accounts: accounts, ledger: ledger, catalog: catalog, rules: OfferRules(section: section, catalog: catalog),
            familySharing: familySharing, signer: signer)
    }

    /// The verification in front of content routes, delivering content as `deliveries` says.
    package func contentGrants(_ deliveries: ContentDeliveries) -> ContentGrants {
        ContentGrants(
            stores: stores, recorder: recorder, accounts: accounts, tokens: tokens, ledger: ledger,
            deliveries: deliveries, followUpsDue: { [background] in background.wake() })
    }

    /// Whether the ledger can be read right now, for `/v1/status`.
    package var ledgerIsHealthy: Bool {
        do {
            try ledger.checkHealth()
            return true
        } catch {
            return false
        }
    }

    /// Starts the work a serving gateway does beside requests, each on a thread of its own and only when a
    /// store asks for it: once, backfilling the notifications sent since the ledger's last one, and each
    /// store's own (answering its requests for delivery evidence). `serve` calls it once the load serves (and
    /// again for a reload's new load); a command that only loads the config does not.
    package func startBackgroundWork(
        logger: Logger, metricsFactory: any MetricsFactory, nextRequestId: @escaping @Sendable () -> String
    ) {
        if backfiller.runsAtStart {
            let backfiller = backfiller
            let thread = Thread { backfiller.backfillSinceLastRecorded(logger: logger, requestId: nextRequestId()) }
            thread.name = "storegate-backfill"
            thread.start()
        }
        let services = StoreServices(
            evidence: DeliveryEvidence(ledger: ledger, catalog: catalog), followUps: StoreFollowUps(ledger: ledger),
            logger: logger,
            metricsFactory: metricsFactory, nextRequestId: nextRequestId)
        let backfiller = backfiller
        background.works.withLock { running in
            guard running.isEmpty else { return }
            running = stores.backends.flatMap { $0.startBackgroundWork(services) }
            running += stores.backends.compactMap { backend in
                backend.voidedPurchasesPollInterval.map { interval in
                    VoidedPurchasePoll(
                        backend, every: interval, backfiller: backfiller, logger: logger, nextRequestId: nextRequestId)
                }
            }
        }
    }

    /// Stops the stores' work beside requests, after what each is doing (a reload's new load takes over).
    package func stopBackgroundWork() {
        background.works.withLock { running in
            running.forEach { $0.stop() }
            running = []
        }
    }
}

/// The stores' work beside requests that a load started.
private final class RunningWork: Sendable {
    let works = Mutex<[any BackgroundWork]>([])

    /// Something the works wait for was recorded (a store's request, a follow-up due).
    func wake() { works.withLock { $0 }.forEach { $0.wake() } }
}
