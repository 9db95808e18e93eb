import Foundation
import GatewayCore
import Logging
import ProductCatalog
import PurchaseLedger
import Synchronization
import Testing

@_spi(VerifierBackends) @testable import PurchaseVerification

@Suite struct VerificationServiceTests {
    private let context = RequestContext(requestId: "t", deadline: .now + .seconds(5), logger: Logger(label: "t"))

    private func request(token: String) -> GatewayRequest {
        GatewayRequest(method: .get, path: "/", headers: [("HTTP_AUTHORIZATION", "Bearer \(token)")])
    }

    private func request(body: String) -> GatewayRequest {
        GatewayRequest(method: .post, path: "/", body: .complete(Array(body.utf8)))
    }

    @Test func credentialsComeFromTheBearerHeaderOrTheBody() throws {
        #expect(try Credential(contentRequest: request(token: "abc.def")) == .downloadToken("abc.def"))
        let receipt = try Credential(contentRequest: request(body: #"{"receipt-data":"MII T\n"}"#))
        #expect(receipt == .appReceipt(try AppReceiptCredential(base64: "MIIT")))
        guard case .appReceipt(let decoded) = receipt else { return }
        #expect(decoded.base64 == "MIIT")
        #expect(decoded.bytes == Data([0x30, 0x82, 0x13]))
        let signed = try Credential(verificationRequest: request(body: #"{"signed-transaction":"a.b.c"}"#))
        #expect(signed == .signedTransactions(["a.b.c"]))
        let bare = try Credential(verificationRequest: request(body: #"{"transaction-id":"2000000123"}"#))
        #expect(bare == .transactionId("2000000123"))
        let download = try Credential(contentRequest: request(body: #"{"transaction-id":"2000000123"}"#))
        #expect(download == .transactionId("2000000123"))
    }

    @Test func missingOrMalformedCredentialsAreRefused() {
        #expect(throws: GatewayError.receiptRequired) {
            try Credential(contentRequest: GatewayRequest(method: .get, path: "/"))
        }
        #expect(throws: GatewayError.receiptRequired) { try Credential(contentRequest: request(body: "{}")) }
        #expect(throws: GatewayError.self) { try Credential(contentRequest: request(body: "[1")) }
        #expect(throws: GatewayError.badRequest("receipt-data must be the app receipt in base64.")) {
            try Credential(contentRequest: request(body: #"{"receipt-data":"%%%"}"#))
        }
        #expect(throws: GatewayError.self) {
            try Credential(
                contentRequest: GatewayRequest(method: .get, path: "/", headers: [("HTTP_AUTHORIZATION", "Basic eA==")])
            )
        }
        #expect(
            throws: GatewayError.badRequest(
                "The body must carry \"receipt-data\" (the app receipt in base64), \"signed-transaction\" or \"transaction-id\"."
            )
        ) {
            try Credential(verificationRequest: request(body: "{}"))
        }
    }

    @Test func onlyAPurchaseOfTheRequestedProductBecomesAnEntitlement() throws {
        let service = try Self.service(backends: [GrantBackend()])
        let entitlement = try service.entitlement(to: "p1", for: request(token: "grant:p1"), context: context)
        #expect(entitlement.productId == "p1")
        #expect(entitlement.environment == "Sandbox")
        #expect(entitlement.originalTransactionId == "t-p1")
        #expect(throws: GatewayError.notEntitled) {
            try service.entitlement(to: "p1", for: request(token: "grant:p2"), context: context)
        }
        #expect(throws: GatewayError.notEntitled) {
            try service.entitlement(to: "p1", for: request(token: "grant:consumable"), context: context)
        }
        // What the backend vouched for was recorded, entitling or not.
        #expect(try service.ledger.counts().purchases == 3)
    }

    @Test func downloadTokensAreCheckedAgainstTheLedgerWhenNoBackendTakesThem() throws {
        let service = try Self.service(backends: [])
        let purchase = StorePurchases(
            status: 0, environment: "Production", bundleId: "com.example",
            transactions: [Self.transaction("p1", id: "41")])
        _ = try service.record(purchase, source: .verify, context: context)
        let token = try #require(service.tokens).issue(
            productId: "p1", originalTransactionId: "41", environment: "Production")
        #expect(try service.entitlement(to: "p1", for: request(token: token.token), context: context).productId == "p1")
        #expect(throws: GatewayError.notEntitled) {
            try service.entitlement(to: "p2", for: request(token: token.token), context: context)
        }
        #expect(throws: GatewayError.tokenInvalid) {
            try service.entitlement(to: "p1", for: request(token: token.token + "x"), context: context)
        }
        // A refund recorded after the token was issued blocks it.
        try Self.recordRefund(of: "p1", id: "41", in: service, source: .notification, context: context)
        #expect(throws: GatewayError.notEntitled) {
            try service.entitlement(to: "p1", for: request(token: token.token), context: context)
        }
    }

    @Test func anAnswerThatBringsNothingNewCostsNoWriteTransaction() throws {
        let ledger = WriteCountingLedger(try Self.service(backends: []).ledger)
        let service = VerificationService(
            backends: [], tokens: nil, catalog: try Self.service(backends: []).catalog, ledger: ledger)
        let purchase = StorePurchases(
            status: 0, environment: "Production", bundleId: "com.example",
            transactions: [Self.transaction("p1", id: "51"), Self.transaction("p2", id: "52")])
        #expect(
            try service.record(purchase, source: .verify, context: context).recorded == .init(recorded: 2, known: 0))
        let firstSeen = try ledger.purchases(environment: "Production", originalTransactionId: "51").map(\.lastSeen)
        // The same transactions again (a cached verify, a restore): answered as known, nothing written.
        #expect(
            try service.record(purchase, source: .verify, context: context).recorded == .init(recorded: 0, known: 2))
        #expect(
            try service.record(purchase, source: .restoreSync, context: context).recorded
                == .init(recorded: 0, known: 2))
        #expect(ledger.writes == 1)
        #expect(
            try ledger.purchases(environment: "Production", originalTransactionId: "51").map(\.lastSeen) == firstSeen)
        // One changed transaction (refunded) or one more makes it a write again.
        try Self.recordRefund(of: "p1", id: "51", in: service, source: .verify, context: context)
        #expect(ledger.writes == 2)
        #expect(
            try ledger.purchases(environment: "Production", originalTransactionId: "51").first?.cancellationDate != nil)
        // A sandbox transaction with the same id is another transaction.
        _ = try service.record(
            StorePurchases(
                status: 0, environment: "Sandbox", bundleId: "com.example",
                transactions: [Self.transaction("p1", id: "51")]),
            source: .verify, context: context)
        #expect(ledger.writes == 3)
    }

    @Test func verifiedPurchasesCarryTokensOnlyForProductsWithContent() throws {
        let service = try Self.service(backends: [GrantBackend()])
        let verified = try service.verify(.downloadToken("grant:p1"), source: .verify, context: context)
            .issuingTokens(service.tokens, catalog: service.catalog)
        #expect(verified.entitlements.map(\.productId) == ["p1"])
        let token = try #require(verified.entitlements.first?.downloadToken)
        #expect(service.tokens?.verify(token.token)?.productId == "p1")
        let plain = try service.verify(.downloadToken("grant:p3"), source: .verify, context: context)
            .issuingTokens(service.tokens, catalog: service.catalog)
        #expect(plain.entitlements.map(\.productId) == ["p3"])
        #expect(plain.entitlements.first?.downloadToken == nil)
    }

    /// Records a refund of purchase `id` of `product`, as a notification or a later verify would.
    static func recordRefund(
        of product: String, id: String, in service: VerificationService, source: LedgerSource, context: RequestContext
    ) throws {
        let refunded = PurchaseTransaction(
            transactionId: id, originalTransactionId: id, productId: product, webOrderLineItemId: nil,
            purchaseDate: nil, expiresDate: nil, cancellationDate: Date(), quantity: 1)
        _ = try service.record(
            StorePurchases(status: 0, environment: "Production", bundleId: "com.example", transactions: [refunded]),
            source: source, context: context)
    }

    static func transaction(_ product: String, id: String) -> PurchaseTransaction {
        PurchaseTransaction(
            transactionId: id, originalTransactionId: id, productId: product, webOrderLineItemId: nil,
            purchaseDate: nil,
            expiresDate: nil, cancellationDate: nil, quantity: 1)
    }

    static func service(backends: [any VerificationBackend]) throws -> VerificationService {
        let content = Product.Content(
            relativePath: "p1.pdf", size: 1, sha256: String(repeating: "0", count: 64), contentType: "application/pdf")
        let catalog = Catalog(
            products: [
                Product(id: "p1", kind: .nonConsumable, title: "", description: "", content: content),
                Product(id: "p2", kind: .nonConsumable, title: "", description: "", content: content),
                Product(id: "p3", kind: .nonConsumable, title: "", description: "", content: nil),
                Product(id: "consumable", kind: .consumable, title: "", description: "", content: nil),
            ],
            contentRoot: "/tmp")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verification-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ledger = try LedgerLocation(url: "sqlite:ledger.sqlite", baseDirectory: folder.path).open(poolSize: 1)
        return VerificationService(
            backends: backends, tokens: DownloadTokens(secret: "a-secret-of-16-chars", ttl: 900), catalog: catalog,
            ledger: ledger)
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

    func recordDelivery(_ delivery: Delivery) throws(LedgerError) { try base.recordDelivery(delivery) }

    func deliveries(environment: String, originalTransactionId: String) throws(LedgerError) -> [Delivery] {
        try base.deliveries(environment: environment, originalTransactionId: originalTransactionId)
    }

    func purchases(environment: String, originalTransactionId: String) throws(LedgerError) -> [StoredPurchase] {
        try base.purchases(environment: environment, originalTransactionId: originalTransactionId)
    }

    func claimConsumptionRequests(now: Date, lease: TimeInterval, limit: Int) throws(LedgerError)
        -> [ConsumptionRequest]
    {
        try base.claimConsumptionRequests(now: now, lease: lease, limit: limit)
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

    func counts() throws(LedgerError) -> LedgerCounts { try base.counts() }

    func checkHealth() throws(LedgerError) { try base.checkHealth() }
}
