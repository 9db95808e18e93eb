import CoreMetrics
import Foundation
import GatewayHandlerAPI
import GatewayServer
import ProductCatalog
import PurchaseEvents
import PurchaseLedger
import PurchaseVerification

/// The composition root of one load: builds each capability a route declares, once per load and only when
/// some route declares it (a failure, too, is built once and so reported once), from the sections that
/// configure it. Handler modules never see this type; they are handed what they declared.
struct LoadCapabilities: CapabilityProvider {
    let inputs: GatewayApplication.Inputs
    /// The store modules the binary carries, asked in this order.
    let stores: [any VerifierProvider.Type]

    private var config: ConfigReader { inputs.config }

    /// Where the load keeps what it built.
    static let catalogKey = SharedKey<Catalog>("catalog")
    static let ledgerKey = SharedKey<any PurchaseLedger>("ledger")
    static let tokensKey = SharedKey<DownloadTokens?>("tokens")
    static let servicesKey = SharedKey<VerificationServices>("verification services")
    static let contentKey = SharedKey<ContentGrants>("content grants")
    /// The `events` section's endpoints; nil without one.
    static let eventsKey = SharedKey<EventDispatch?>("events")
    /// Set once the stores checked what taking their notifications needs (once per load, however many routes).
    static let notificationChecksKey = SharedKey<Bool>("notification checks")

    func catalog() throws -> Catalog {
        try inputs.store.value(for: Self.catalogKey) {
            let file = config.scoped("catalog").path("file")
            let root = config.scoped("content").path("root", default: "content")
            guard let file, let root else {
                config.scoped("catalog").report("file", "is required: the routes need a product catalog")
                throw ConfigProblems([])
            }
            inputs.runtime.metrics.declare(ErrorCode.catalog)
            return try CatalogLoader.load(file: file, contentRoot: root)
        }
    }

    private func ledger() throws -> any PurchaseLedger {
        try inputs.store.value(for: Self.ledgerKey) { try LedgerSettings.open(config.scoped("ledger")) }
    }

    /// The `tokens` section's tokens; nil when `tokens.secret` is unset.
    private func tokens() throws -> DownloadTokens? {
        try inputs.store.value(for: Self.tokensKey) { DownloadTokens(section: config.scoped("tokens")) }
    }

    /// The events the ledger writes go to the `events` section's endpoints, from every gateway sharing it.
    private func events() throws -> EventDispatch? {
        try inputs.store.value(for: Self.eventsKey) {
            guard config.hasSection("events") else { return nil }
            return EventDispatch(settings: EventSettings(section: config.scoped("events")), ledger: try ledger())
        }
    }

    /// Each part is built before any failure is thrown, so one load reports the problems of all of them.
    private func services() throws -> VerificationServices {
        try inputs.store.value(for: Self.servicesKey) {
            let runtime = inputs.runtime
            let loadedCatalog = Result { try catalog() }
            let backends = Result {
                try StoreBackends(
                    config: config, providers: stores, catalog: try? loadedCatalog.get(), logger: runtime.logger,
                    metricsFactory: runtime.metrics.factory,
                    declare: { [metrics = runtime.metrics] codes in metrics.declare(codes) })
            }
            let loaded = (catalog: loadedCatalog, ledger: Result { try ledger() }, tokens: Result { try tokens() })
            let events = Result { try self.events() }
            _ = try events.get()
            return VerificationServices(
                config: config, stores: try backends.get(), catalog: try loaded.catalog.get(),
                ledger: try loaded.ledger.get(), tokens: try loaded.tokens.get(),
                metricsFactory: runtime.metrics.factory)
        }
    }

    func purchaseVerifier() throws -> PurchaseVerifier {
        let recorder = try services().recorder
        return PurchaseVerifier { request, restoring, context in
            try recorder.verify(request, restoring: restoring, context: context)
        }
    }

    func notificationIntake() throws -> NotificationIntake {
        _ = try inputs.store.value(for: Self.notificationChecksKey) {
            for store in stores where config.hasSection(store.section) {
                store.checkNotifications(config.scoped(store.section))
            }
            return true
        }
        let notifications = try services().notifications
        return NotificationIntake { body, authorization, context in
            try notifications.record(NotificationDelivery(body: body, authorization: authorization), context: context)
        }
    }

    func accountHoldings() throws -> AccountHoldings {
        if !config.hasSection("accounts") {
            config.warn(
                "accounts",
                "is not set, so a route that answers an app account's holdings (entitlements) refuses every request "
                    + "with 401 account_required; set accounts, or remove the route")
        }
        let holdings = try services().holdings
        return AccountHoldings { request, context in try holdings.entitlements(for: request, context: context) }
    }

    func offerSignatures() throws -> OfferSignatures {
        if !config.hasSection("accounts") {
            config.warn(
                "accounts",
                "is not set, so a route that signs offers for an app account refuses every request with 401 "
                    + "account_required; set accounts, or remove the route")
        }
        guard let desk = try services().offerDesk(config.scoped("offers")) else {
            config.report(
                "offers", "needs a store that signs offers: apple.server_api, whose in-app purchase key signs them")
            throw ConfigProblems([])
        }
        return OfferSignatures { request, productId, context in
            try desk.offers(for: request, productId: productId, context: context)
        }
    }

    func supportDesk() throws -> SupportDesk {
        let lookup = try services().lookup
        return SupportDesk { query, context in try lookup.lookUp(query, context: context) }
    }

    /// Read at request time: the verification services (and their ledger) belong to other routes of the load,
    /// and are not built for the status route's sake.
    func gatewayStatus() throws -> GatewayStatus {
        let (stats, store) = (inputs.runtime.stats, inputs.store)
        return GatewayStatus {
            let services = store.existing(for: Self.servicesKey)
            let events = store.existing(for: Self.eventsKey).flatMap { $0 }.map { events in
                ((try? events.backlog()) ?? []).map { row in
                    EventEndpointBacklog(
                        endpoint: row.endpoint, pending: row.pending,
                        oldestPendingSeconds: row.oldestPending.map { max(0, Int(-$0.timeIntervalSinceNow)) } ?? 0,
                        undeliverable: row.expired)
                }
            }
            return StatusReport(
                version: StoreGateVersion.current,
                uptimeSeconds: Int(stats.startedAt.duration(to: .now).components.seconds),
                workersTotal: stats.workersTotal, workersBusy: stats.workersBusy,
                requestsByStatus: stats.requestsByStatus, ledgerHealthy: services?.ledgerIsHealthy,
                upstreamLastError: services?.stores.lastUpstreamError, eventEndpoints: events)
        }
    }

    /// With the ledger's free grants in force counted at each scrape, when a route of the load uses the ledger.
    func metricsText() throws -> MetricsText {
        let (metrics, stats, store) = (inputs.runtime.metrics, inputs.runtime.stats, inputs.store)
        let grants = Gauge(label: "storegate_free_grants_active", factory: metrics.factory)
        return MetricsText {
            if let services = store.existing(for: Self.servicesKey), let active = try? services.grants.list(all: false)
            {
                grants.record(active.count)
            }
            return metrics.exposition(stats: stats)
        }
    }

    func contentGate(tokensRequiredBy handler: String?) throws -> any ContentGate {
        if let handler, try tokens() == nil {
            config.scoped("tokens").report(
                "secret", "is required by the \(handler) route (set STOREGATE_TOKENS_SECRET)")
        }
        return try inputs.store.value(for: Self.contentKey) {
            let deliveries = ContentDeliveries(
                section: config.scoped("content"), catalog: try catalog(),
                metricsFactory: inputs.runtime.metrics.factory)
            return try services().contentGrants(deliveries)
        }
    }
}

extension GatewayApplication {
    /// Loads `configFile` with the handler modules of `registry` and the store modules `stores`, each route
    /// handed the capabilities its module declares.
    package static func load(
        configFile: String, registry: HandlerRegistry, stores: [any VerifierProvider.Type],
        environment: [String: String], runtime: GatewayRuntime
    ) throws(ConfigProblems) -> GatewayApplication {
        try load(
            configFile: configFile, registry: registry, environment: environment, runtime: runtime,
            capabilities: { inputs in LoadCapabilities(inputs: inputs, stores: stores) })
    }
}
