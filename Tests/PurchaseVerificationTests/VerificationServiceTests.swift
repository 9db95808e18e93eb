import CoreMetrics
import Foundation
import GatewayHandlerAPI
import Logging
import PurchaseLedger
import Synchronization
import Testing

@testable import PurchaseVerification

/// Verify and record, and the grants behind content routes, with a backend that takes `grant:<product>` tokens.
@Suite struct VerificationServiceTests {
    private let context = RequestContext(
        requestId: "t", deadline: .now + .seconds(5), logger: Logger(label: "t"), exchange: 7)

    private func request(token: String) -> GatewayRequest {
        GatewayRequest(method: .get, path: "/", headers: [("HTTP_AUTHORIZATION", "Bearer \(token)")])
    }

    @Test func credentialsOfContentRoutesComeFromTheBearerHeaderFirst() throws {
        let stores = StoreBackends(backends: [], stores: [])
        guard case .downloadToken(let token) = try stores.credential(contentRequest: request(token: "abc.def")) else {
            Issue.record("a Bearer header is a download token")
            return
        }
        #expect(token == "abc.def")
        #expect(throws: GatewayError.receiptRequired) {
            try stores.credential(contentRequest: GatewayRequest(method: .get, path: "/"))
        }
        #expect(throws: GatewayError.receiptRequired) {
            try stores.credential(
                contentRequest: GatewayRequest(method: .post, path: "/", body: .complete(Array("{}".utf8))))
        }
        #expect(throws: GatewayError.badRequest("Authorization must be \"Bearer <download token>\".")) {
            try stores.credential(
                contentRequest: GatewayRequest(method: .get, path: "/", headers: [("HTTP_AUTHORIZATION", "Basic eA==")])
            )
        }
        #expect(throws: GatewayError.badRequest("The body must carry a credential.")) {
            try stores.credential(
                verificationRequest: GatewayRequest(method: .post, path: "/", body: .complete(Array("{}".utf8))))
        }
    }

    @Test func onlyAPurchaseOfTheRequestedProductBecomesAGrantForThisExchange() throws {
        let fixture = try Fixture(backends: [GrantBackend()])
        let grant = try fixture.grants.grant("p1", for: request(token: "grant:p1"), context: context)
        #expect(grant.productId == "p1")
        #expect(grant.environment == "Sandbox")
        #expect(grant.originalTransactionId == "t-p1")
        #expect(grant.exchange == 7)
        #expect(throws: GatewayError.notEntitled) {
            try fixture.grants.grant("p1", for: request(token: "grant:p2"), context: context)
        }
        #expect(throws: GatewayError.notEntitled) {
            try fixture.grants.grant("p1", for: request(token: "grant:consumable"), context: context)
        }
        // What the backend vouched for was recorded, entitling or not.
        #expect(try fixture.ledger.counts().purchases == 3)
    }

    @Test func downloadTokensAreCheckedAgainstTheLedgerWhenNoBackendTakesThem() throws {
        let fixture = try Fixture(backends: [])
        let purchase = Self.transaction("p1", id: "41")
        _ = try fixture.recordedBy([purchase], source: .verify, context: context)
        let token = fixture.tokens.issue(productId: "p1", originalTransactionId: "41", environment: "Production")
        #expect(try fixture.grants.grant("p1", for: request(token: token.token), context: context).productId == "p1")
        #expect(throws: GatewayError.notEntitled) {
            try fixture.grants.grant("p2", for: request(token: token.token), context: context)
        }
        #expect(throws: GatewayError.tokenInvalid) {
            try fixture.grants.grant("p1", for: request(token: token.token + "x"), context: context)
        }
        // A refund recorded after the token was issued blocks it.
        _ = try fixture.recordedBy([Self.refund(of: "p1", id: "41")], source: .notification, context: context)
        #expect(throws: GatewayError.notEntitled) {
            try fixture.grants.grant("p1", for: request(token: token.token), context: context)
        }
    }

    @Test func anAnswerThatBringsNothingNewCostsNoWriteTransaction() throws {
        let counting = WriteCountingLedger(try Fixture.openLedger())
        let fixture = try Fixture(backends: [], ledger: counting)
        let purchases = [Self.transaction("p1", id: "51"), Self.transaction("p2", id: "52")]
        func counts(_ verified: VerifiedPurchases) -> [Int] { [verified.recordedPurchases, verified.knownPurchases] }
        #expect(counts(try fixture.recordedBy(purchases, source: .verify, context: context)) == [2, 0])
        let firstSeen = try counting.purchases(environment: "Production", originalTransactionId: "51").map(\.lastSeen)
        // The same transactions again (a cached verify): answered as known, nothing written.
        #expect(counts(try fixture.recordedBy(purchases, source: .verify, context: context)) == [0, 2])
        #expect(counting.writes == 1)
        // A restore of them: known too, and its one write is the restore itself, for the support timeline.
        #expect(counts(try fixture.recordedBy(purchases, source: .restoreSync, context: context)) == [0, 2])
        #expect(counting.writes == 2)
        #expect(try counting.restores(environment: "Production", originalTransactionId: "51").count == 1)
        #expect(
            try counting.purchases(environment: "Production", originalTransactionId: "51").map(\.lastSeen) == firstSeen)
        // One changed transaction (refunded) or one more makes it a write again.
        _ = try fixture.recordedBy([Self.refund(of: "p1", id: "51")], source: .verify, context: context)
        #expect(counting.writes == 3)
        #expect(
            try counting.purchases(environment: "Production", originalTransactionId: "51").first?.cancellationDate
                != nil)
        // A sandbox transaction with the same id is another transaction.
        _ = try fixture.recordedBy(
            [Self.transaction("p1", id: "51")], environment: "Sandbox", source: .verify, context: context)
        #expect(counting.writes == 4)
    }

    @Test func verifiedPurchasesCarryTokensOnlyForProductsWithContent() throws {
        let fixture = try Fixture(backends: [GrantBackend()])
        let verified = try fixture.recorder.verify(.downloadToken("grant:p1"), source: .verify, context: context)
            .issuingTokens(fixture.tokens, catalog: fixture.catalog)
        #expect(verified.entitlements.map(\.productId) == ["p1"])
        let token = try #require(verified.entitlements.first?.downloadToken)
        #expect(fixture.tokens.verify(token.token)?.productId == "p1")
        let plain = try fixture.recorder.verify(.downloadToken("grant:p3"), source: .verify, context: context)
            .issuingTokens(fixture.tokens, catalog: fixture.catalog)
        #expect(plain.entitlements.map(\.productId) == ["p3"])
        #expect(plain.entitlements.first?.downloadToken == nil)
    }

    static func transaction(_ product: String, id: String) -> PurchaseTransaction {
        PurchaseTransaction(
            transactionId: id, originalTransactionId: id, productId: product, webOrderLineItemId: nil,
            purchaseDate: nil, expiresDate: nil, cancellationDate: nil, quantity: 1)
    }

    /// A refund of purchase `id` of `product`, as a notification or a later verify brings it.
    static func refund(of product: String, id: String) -> PurchaseTransaction {
        PurchaseTransaction(
            transactionId: id, originalTransactionId: id, productId: product, webOrderLineItemId: nil,
            purchaseDate: nil, expiresDate: nil, cancellationDate: Date(), quantity: 1)
    }
}

/// A catalog, a ledger, tokens, and the services made of them, for one test.
struct Fixture {
    let catalog: Catalog
    let ledger: any PurchaseLedger
    let tokens = DownloadTokens(secret: "a-secret-of-16-chars", ttl: 900)
    let recorder: PurchaseRecorder
    let grants: ContentGrants
    /// Answers whatever purchases a test hands it, for the recorder to record.
    private let scripted = ScriptedBackend()

    init(backends: [any VerificationBackend], ledger: (any PurchaseLedger)? = nil) throws {
        let content = Product.Content(
            relativePath: "p1.pdf", size: 1, sha256: String(repeating: "0", count: 64), contentType: "application/pdf")
        catalog = Catalog(
            products: [
                Product(id: "p1", kind: .nonConsumable, title: "", description: "", content: content),
                Product(id: "p2", kind: .nonConsumable, title: "", description: "", content: content),
                Product(id: "p3", kind: .nonConsumable, title: "", description: "", content: nil),
                Product(id: "consumable", kind: .consumable, title: "", description: "", content: nil),
            ],
            contentRoot: "/tmp", version: "test")
        self.ledger = try ledger ?? Self.openLedger()
        let stores = StoreBackends(backends: backends + [scripted], stores: [])
        recorder = PurchaseRecorder(
            stores: stores, catalog: catalog, ledger: self.ledger, tokens: tokens, accounts: nil,
            familySharing: .everyType)
        let deliveries = ContentDeliveries(
            section: ConfigReader(document: .null, baseDirectory: "/tmp", environment: [:]), catalog: catalog,
            metricsFactory: NOOPMetricsHandler.instance)
        grants = ContentGrants(
            stores: stores, recorder: recorder, accounts: nil, tokens: tokens, ledger: self.ledger,
            deliveries: deliveries)
    }

    static func openLedger() throws -> any PurchaseLedger {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verification-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try LedgerLocation(url: "sqlite:ledger.sqlite", baseDirectory: folder.path).open(poolSize: 1)
    }

    /// `transactions` verified by the store and recorded by the recorder, as from `source`.
    func recordedBy(
        _ transactions: [PurchaseTransaction], environment: String = "Production", source: LedgerSource,
        context: RequestContext
    ) throws -> VerifiedPurchases {
        scripted.next.withLock {
            $0 = StorePurchases(
                status: 0, environment: environment, bundleId: "com.example", transactions: transactions)
        }
        return try recorder.verify(.downloadToken("scripted"), source: source, context: context)
    }
}

/// Vouches for what the test set last, for the `scripted` token.
private final class ScriptedBackend: VerificationBackend {
    let next = Mutex<StorePurchases?>(nil)

    func accepts(_ credential: Credential) -> Bool {
        if case .downloadToken("scripted") = credential { true } else { false }
    }

    func verify(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
        guard let purchases = next.withLock({ $0 }) else { throw GatewayError.receiptRequired }
        return purchases
    }
}

/// Takes download tokens `grant:<product>` as a purchase of that product.
private struct GrantBackend: VerificationBackend {
    func accepts(_ credential: Credential) -> Bool {
        if case .downloadToken(let token) = credential { token.hasPrefix("grant:") } else { false }
    }

    func verify(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
        guard case .downloadToken(let token) = credential else { throw GatewayError.receiptRequired }
        let product = String(token.dropFirst(6))
        return StorePurchases(
            status: 0, environment: "Sandbox", bundleId: "com.example",
            transactions: [VerificationServiceTests.transaction(product, id: "t-\(product)")])
    }
}

/// A ledger that counts its write transactions for purchases.
private final class WriteCountingLedger: PurchaseLedger {
    private let base: any PurchaseLedger
    private let count = Mutex(0)

    init(_ base: any PurchaseLedger) { self.base = base }

    var writes: Int { count.withLock { $0 } }

    func record(_ batch: LedgerBatch) throws(LedgerError) -> RecordOutcome {
        count.withLock { $0 += 1 }
        return try base.record(batch)
    }

    func recordNotification(_ notification: LedgerNotification) throws(LedgerError) -> Bool {
        try base.recordNotification(notification)
    }

    func recordDelivery(_ delivery: Delivery) throws(LedgerError) -> Bool { try base.recordDelivery(delivery) }

    func recordRestores(_ restores: [Restore]) throws(LedgerError) {
        count.withLock { $0 += 1 }
        try base.recordRestores(restores)
    }

    func restores(environment: String, originalTransactionId: String) throws(LedgerError) -> [Restore] {
        try base.restores(environment: environment, originalTransactionId: originalTransactionId)
    }

    func deliveries(environment: String, originalTransactionId: String) throws(LedgerError) -> [Delivery] {
        try base.deliveries(environment: environment, originalTransactionId: originalTransactionId)
    }

    func renewals(environment: String, originalTransactionId: String) throws(LedgerError) -> [SubscriptionRenewal] {
        try base.renewals(environment: environment, originalTransactionId: originalTransactionId)
    }

    func recordDeliveryFailure(_ failure: DeliveryFailure) throws(LedgerError) {
        try base.recordDeliveryFailure(failure)
    }

    func deliveryFailures(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [DeliveryFailure]
    {
        try base.deliveryFailures(environment: environment, originalTransactionId: originalTransactionId)
    }

    func purchases(environment: String, originalTransactionId: String) throws(LedgerError) -> [StoredPurchase] {
        try base.purchases(environment: environment, originalTransactionId: originalTransactionId)
    }

    func claimConsumptionRequests(store: String, now: Date, lease: TimeInterval, limit: Int) throws(LedgerError)
        -> [ConsumptionRequest]
    {
        try base.claimConsumptionRequests(store: store, now: now, lease: lease, limit: limit)
    }

    func settleConsumptionRequest(
        _ notificationUUID: String, state: ConsumptionRequestState, answer: String?, outcome: String, at: Date
    ) throws(LedgerError) -> Bool {
        try base.settleConsumptionRequest(notificationUUID, state: state, answer: answer, outcome: outcome, at: at)
    }

    func deferConsumptionRequest(_ notificationUUID: String, until nextAttempt: Date, outcome: String)
        throws(LedgerError)
    {
        try base.deferConsumptionRequest(notificationUUID, until: nextAttempt, outcome: outcome)
    }

    func consumptionRequests(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredConsumptionRequest]
    {
        try base.consumptionRequests(environment: environment, originalTransactionId: originalTransactionId)
    }

    func claimFollowUps(store: String, now: Date, lease: TimeInterval, limit: Int) throws(LedgerError)
        -> [StoreFollowUp]
    {
        try base.claimFollowUps(store: store, now: now, lease: lease, limit: limit)
    }

    func settleFollowUp(_ key: String, state: StoreFollowUpState, outcome: String, at: Date) throws(LedgerError)
        -> Bool
    {
        try base.settleFollowUp(key, state: state, outcome: outcome, at: at)
    }

    func deferFollowUp(_ key: String, until nextAttempt: Date, outcome: String) throws(LedgerError) {
        try base.deferFollowUp(key, until: nextAttempt, outcome: outcome)
    }

    func followUps(environment: String, originalTransactionId: String) throws(LedgerError) -> [StoredFollowUp] {
        try base.followUps(environment: environment, originalTransactionId: originalTransactionId)
    }

    func followUpBacklog(store: String) throws(LedgerError) -> [FollowUpBacklog] {
        try base.followUpBacklog(store: store)
    }

    func originals(ofHandle handle: String, store: String) throws(LedgerError) -> [LedgerOriginal] {
        try base.originals(ofHandle: handle, store: store)
    }

    func endPurchases(of original: LedgerOriginal, at: Date, source: LedgerSource) throws(LedgerError) -> Int {
        try base.endPurchases(of: original, at: at, source: source)
    }

    func originals(of transactionId: String) throws(LedgerError) -> [LedgerOriginal] {
        try base.originals(of: transactionId)
    }

    func transactions(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredTransaction]
    {
        try base.transactions(environment: environment, originalTransactionId: originalTransactionId)
    }

    func notifications(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredNotification]
    {
        try base.notifications(environment: environment, originalTransactionId: originalTransactionId)
    }

    func recordBackfill(_ run: BackfillRun) throws(LedgerError) { try base.recordBackfill(run) }

    func notificationsRecordedUntil() throws(LedgerError) -> Date? { try base.notificationsRecordedUntil() }

    func claim(_ claim: AccountClaim) throws(LedgerError) -> ClaimOutcome { try base.claim(claim) }

    func holdings(of accountId: String) throws(LedgerError) -> [StoredPurchase] { try base.holdings(of: accountId) }

    func holders(environment: String, originalTransactionId: String) throws(LedgerError) -> [String] {
        try base.holders(environment: environment, originalTransactionId: originalTransactionId)
    }

    func bindingEvents(environment: String, originalTransactionId: String) throws(LedgerError) -> [BindingEvent] {
        try base.bindingEvents(environment: environment, originalTransactionId: originalTransactionId)
    }

    func recordGrant(_ grant: FreeGrant) throws(LedgerError) { try base.recordGrant(grant) }

    func revokeGrant(_ id: String, by: String, reason: String, at: Date) throws(LedgerError) -> FreeGrant? {
        try base.revokeGrant(id, by: by, reason: reason, at: at)
    }

    func freeGrants(_ selection: FreeGrantSelection) throws(LedgerError) -> [FreeGrant] {
        try base.freeGrants(selection)
    }

    func counts() throws(LedgerError) -> LedgerCounts { try base.counts() }

    func checkHealth() throws(LedgerError) { try base.checkHealth() }

    func configureEventEndpoints(_ endpoints: [EventSubscription], at: Date) throws(LedgerError) {
        try base.configureEventEndpoints(endpoints, at: at)
    }

    func claimEventDeliveries(endpoint: String, now: Date, lease: TimeInterval, limit: Int) throws(LedgerError)
        -> [EventDeliveryClaim]
    {
        try base.claimEventDeliveries(endpoint: endpoint, now: now, lease: lease, limit: limit)
    }

    func releaseEventDelivery(_ claim: EventDeliveryClaim) throws(LedgerError) { try base.releaseEventDelivery(claim) }

    func settleEventDelivery(_ claim: EventDeliveryClaim, as end: EventDeliveryEnd, outcome: String, at: Date)
        throws(LedgerError)
    {
        try base.settleEventDelivery(claim, as: end, outcome: outcome, at: at)
    }

    func deferEventDelivery(_ claim: EventDeliveryClaim, until nextAttempt: Date, outcome: String)
        throws(LedgerError)
    {
        try base.deferEventDelivery(claim, until: nextAttempt, outcome: outcome)
    }

    func eventBacklog() throws(LedgerError) -> [EventBacklog] { try base.eventBacklog() }

    func events(since: Date, after: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try base.events(since: since, after: after, limit: limit)
    }

    func events(environment: String, originalTransactionId: String) throws(LedgerError) -> [LedgerEvent] {
        try base.events(environment: environment, originalTransactionId: originalTransactionId)
    }

    func eventDeliveries(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredEventDelivery]
    {
        try base.eventDeliveries(environment: environment, originalTransactionId: originalTransactionId)
    }

    func replayEvents(since: Date, endpoint: String?, at: Date) throws(LedgerError) -> Int {
        try base.replayEvents(since: since, endpoint: endpoint, at: at)
    }
}
