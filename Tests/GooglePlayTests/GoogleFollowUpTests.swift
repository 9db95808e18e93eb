import AppStoreSim
import CoreMetrics
import Foundation
import GatewayHandlerAPI
import GoogleTestSupport
import Logging
import PurchaseLedger
import PurchaseVerification
import Testing

@testable import GooglePlay

/// What Google must hear about a purchase once it is recorded: which follow-ups a verification brings, and the
/// gateway's work that sends them from the ledger to Google's stand-in and settles them there.
@Suite struct GoogleFollowUpTests {
    typealias Store = GooglePlayBackendTests.Store
    static let package = GooglePlayBackendTests.package
    static func body(_ token: String, _ product: String? = nil) -> String {
        GooglePlayBackendTests.body(token, product: product)
    }

    /// The follow-ups a verification of `token` brings, as (action, after delivery, Google's product id).
    static func followUps(_ store: Store, _ token: String, product: String? = nil) async throws
        -> [(String, Bool, String)]
    {
        let purchases = try await store.verify(Self.body(token, product)).get()
        for followUp in purchases.followUps {
            #expect(followUp.subject == token)
            #expect(followUp.app == Self.package)
            #expect(followUp.originalTransactionId == purchases.transactions.first?.originalTransactionId)
            #expect(followUp.environment == purchases.environment)
        }
        return purchases.followUps.map { ($0.action, $0.afterDelivery, $0.storeProductId) }
    }

    @Test func aPurchaseGoogleWaitsToHearAboutIsVerifiedWithItsFollowUps() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        var acknowledged = SimGooglePurchase(token: "tok-acked", packageName: Self.package, productId: "book.1")
        acknowledged.acknowledged = true
        var consumed = SimGooglePurchase(token: "tok-eaten", packageName: Self.package, productId: "coins.100")
        consumed.acknowledged = true
        consumed.consumed = true
        var subscription = SimGooglePurchase(
            token: "tok-weekly", packageName: Self.package, productId: "weekly_android")
        subscription.subscription = true
        var pending = SimGooglePurchase(token: "tok-pending", packageName: Self.package, productId: "book.1")
        pending.state = "PENDING"
        stand.google.add([
            SimGooglePurchase(token: "tok-book", packageName: Self.package, productId: "book.1"),
            SimGooglePurchase(token: "tok-coins", packageName: Self.package, productId: "coins.100"),
            SimGooglePurchase(token: "tok-gems", packageName: Self.package, productId: "gems.pack"),
            SimGooglePurchase(token: "tok-unsold", packageName: Self.package, productId: "not.in.catalog"),
            acknowledged, consumed, subscription, pending,
        ])
        let store = try Store(stand, account)
        #expect(try await Self.followUps(store, "tok-book").map(\.0) == ["acknowledge"])
        #expect(try await Self.followUps(store, "tok-acked").isEmpty)
        let coins = try await Self.followUps(store, "tok-coins")
        #expect(coins.map(\.0) == ["acknowledge", "consume"])
        #expect(coins.map(\.1) == [false, false], "a consumable with no content is consumed when recorded")
        let gems = try await Self.followUps(store, "tok-gems")
        #expect(gems.map(\.0) == ["acknowledge", "consume"])
        #expect(gems.map(\.1) == [false, true], "a consumable with content is consumed after its first download")
        #expect(try await Self.followUps(store, "tok-eaten").isEmpty)
        #expect(try await Self.followUps(store, "tok-unsold").isEmpty, "only what the catalog sells")
        let weekly = try await Self.followUps(store, "tok-weekly", product: "weekly_android")
        #expect(weekly.map(\.0) == ["acknowledge subscription"])
        #expect(weekly.map(\.2) == ["weekly_android"], "Google's product id, not the catalog's")
        #expect(try await store.refusal(Self.body("tok-pending")).code == ErrorCode.purchasePending)

        let appDoesIt = try Store(stand, account, ["acknowledge": "false", "consume": "false"])
        #expect(try await Self.followUps(appDoesIt, "tok-coins").isEmpty)
        let acknowledgeOnly = try Store(stand, account, ["consume": "false"])
        #expect(try await Self.followUps(acknowledgeOnly, "tok-gems").map(\.0) == ["acknowledge"])
    }

    /// A gateway's follow-up work against `stand`, with a fresh SQLite ledger.
    struct Gateway {
        let ledger: SQLiteLedger
        let work: any BackgroundWork

        init(_ store: Store) throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID()).sqlite").path
            ledger = try SQLiteLedger(path: path)
            let services = StoreServices(
                evidence: DeliveryEvidence(ledger: ledger, catalog: GooglePlayBackendTests.catalog),
                followUps: StoreFollowUps(ledger: ledger), logger: Logger(label: "test"),
                metricsFactory: NOOPMetricsHandler.instance, nextRequestId: { "test" })
            work = try #require(store.backend.startBackgroundWork(services).first)
        }

        /// Records what `store` vouches for about `token`, as the recorder does, and wakes the work.
        func record(_ store: Store, _ token: String) async throws -> StorePurchases {
            let purchases = try await store.verify(GoogleFollowUpTests.body(token)).get()
            _ = try ledger.record(
                LedgerBatch(transactions: [], source: .verify, requestId: "test", followUps: purchases.followUps))
            work.wake()
            return purchases
        }

        /// The follow-ups of `purchases` once none is pending any more (within `seconds`), else as they stand.
        func settled(_ purchases: StorePurchases, within seconds: Int = 20) async throws -> [StoredFollowUp] {
            let original = try #require(purchases.transactions.first?.originalTransactionId)
            var stored: [StoredFollowUp] = []
            for _ in 0..<max(1, seconds * 20) {
                stored = try ledger.followUps(environment: purchases.environment, originalTransactionId: original)
                if stored.allSatisfy({ $0.state != .pending }) { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            return stored
        }
    }

    @Test func recordedFollowUpsAreSentToGoogleOnceAndSettledInTheLedger() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        stand.google.add([SimGooglePurchase(token: "tok-coins", packageName: Self.package, productId: "coins.100")])
        let store = try Store(stand, account)
        let gateway = try Gateway(store)
        defer { gateway.work.stop() }
        let purchases = try await gateway.record(store, "tok-coins")
        let settled = try await gateway.settled(purchases)
        #expect(settled.map(\.state) == [.done, .done])
        #expect(settled.map(\.outcome) == ["Google took it", "Google took it"])
        #expect(stand.google.purchase("tok-coins")?.acknowledged == true)
        #expect(stand.google.purchase("tok-coins")?.consumed == true)
        #expect(stand.google.calls["purchases.products.acknowledge"] == 1)
        #expect(stand.google.calls["purchases.products.consume"] == 1)
        // Recorded again (another verification, another gateway): nothing is sent twice.
        _ = try gateway.ledger.record(
            LedgerBatch(transactions: [], source: .verify, requestId: "again", followUps: purchases.followUps))
        gateway.work.wake()
        #expect(try await gateway.settled(purchases).map(\.state) == [.done, .done])
        #expect(stand.google.calls["purchases.products.acknowledge"] == 1)
    }

    @Test func googlesRefusalGivesAFollowUpUpAndGooglesTroubleDefersIt() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        var subscription = SimGooglePurchase(
            token: "tok-weekly", packageName: Self.package, productId: "weekly_android")
        subscription.subscription = true
        stand.google.add([
            SimGooglePurchase(token: "tok-book", packageName: Self.package, productId: "book.1"), subscription,
        ])
        let store = try Store(stand, account, ["max_attempts": "1"])
        let book = try await store.verify(Self.body("tok-book")).get()
        let weekly = try await store.verify(Self.body("tok-weekly", "weekly_android")).get()
        // Google no longer knows the book's token by the time it is acknowledged; the subscription's call fails.
        var gone = SimGooglePurchase(token: "tok-book", packageName: Self.package, productId: "book.1")
        gone.gone = true
        stand.google.add([gone])
        try stand.play([SimGoogleStep(endpoint: "purchases.subscriptions.acknowledge", httpStatus: 503)])
        let gateway = try Gateway(store)
        defer { gateway.work.stop() }
        for purchases in [book, weekly] {
            _ = try gateway.ledger.record(
                LedgerBatch(transactions: [], source: .verify, requestId: "test", followUps: purchases.followUps))
        }
        gateway.work.wake()
        var bookState: [StoredFollowUp] = []
        var weeklyState: [StoredFollowUp] = []
        for _ in 0..<400 {
            bookState = try await gateway.settled(book, within: 0)
            weeklyState = try gateway.ledger.followUps(
                environment: "Production", originalTransactionId: weekly.transactions[0].originalTransactionId)
            if bookState.first?.state != .pending, weeklyState.first?.followUp.attempts == 1 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(bookState.map(\.state) == [.abandoned])
        #expect(bookState.first?.outcome?.hasPrefix("Google refused it:") == true, "\(bookState)")
        #expect(weeklyState.map(\.state) == [.pending])
        #expect(weeklyState.first?.followUp.attempts == 1)
        #expect(weeklyState.first?.outcome?.hasPrefix("Google could not take it:") == true, "\(weeklyState)")
        for outcome in (bookState + weeklyState).compactMap(\.outcome) {
            #expect(!outcome.contains("tok-"), "no purchase token in what support reads")
        }
        // Deferred a minute at least: the next pass leaves it alone.
        #expect(try gateway.ledger.claimFollowUps(store: "google-play", now: Date(), lease: 1, limit: 10).isEmpty)
    }
}
