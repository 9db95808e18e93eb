import AppStoreSim
import ConfigYAML
import CoreMetrics
import Foundation
import GatewayHandlerAPI
import GoogleTestSupport
import Logging
import PurchaseLedger
import PurchaseVerification
import Testing

@testable import GooglePlay

/// Google Play purchases through the store seam, against Google's stand-in: what each of Google's states
/// gives, this server's policy (package names, test purchases), and Google's failures as answers.
@Suite struct GooglePlayBackendTests {
    static let package = "com.example.reader"
    static let catalog = Catalog(
        products: [
            Product(id: "book.1", kind: .nonConsumable, title: "Book", description: "", content: nil),
            Product(id: "coins.100", kind: .consumable, title: "Coins", description: "", content: nil),
            Product(
                id: "gems.pack", kind: .consumable, title: "Gems", description: "",
                content: Product.Content(
                    relativePath: "gems.zip", size: 1, sha256: String(repeating: "0", count: 64),
                    contentType: "application/zip")),
            Product(id: "magazine.monthly", kind: .autoRenewable, title: "Magazine", description: "", content: nil),
            Product(
                id: "com.example.atlas", kind: .nonConsumable, title: "Atlas", description: "", content: nil,
                storeIds: ["google-play": "atlas_android"]),
            Product(
                id: "com.example.weekly", kind: .autoRenewable, title: "Weekly", description: "", content: nil,
                storeIds: ["google-play": "weekly_android"]),
        ], contentRoot: "/nonexistent", version: "test")

    /// A Google Play store built from a `google` section pointing at `stand` with `fields` besides.
    struct Store {
        let backend: any VerificationBackend

        init(_ stand: GoogleStandIn, _ account: GoogleTestAccount, _ fields: [String: String] = [:]) throws {
            let (yaml, environment) = try stand.section(
                account, ["package_names": "[\(GooglePlayBackendTests.package)]"].merging(fields) { $1 })
            let reader = try ConfigReader(yaml: yaml, source: "test", baseDirectory: "/tmp", environment: environment)
            let backends = try GooglePlayVerification.makeBackends(
                StoreSetup(
                    section: reader.scoped("google"), isConfigured: true, catalog: GooglePlayBackendTests.catalog,
                    logger: Logger(label: "test"), metricsFactory: NOOPMetricsHandler.instance, declare: { _ in }))
            #expect(reader.problems.isEmpty, "\(reader.problems)")
            backend = try #require(backends.first)
        }

        /// What the backend vouches for, for `body` as an app would send it.
        func verify(_ body: String) async -> Result<StorePurchases, any Error> {
            let backend = backend
            return await OnThread.result { () throws(any Error) in
                let request = GatewayRequest(method: .post, path: "/v1/verify", body: .complete(Array(body.utf8)))
                let parsed = try PurchaseBody(from: request, notAnObject: .badRequest("not an object"))
                guard let parsed, let credential = try GooglePlayVerification.credential(in: parsed) else {
                    throw GatewayError.badRequest("no Google Play credential")
                }
                #expect(backend.accepts(.store(credential)))
                let context = RequestContext(
                    requestId: "test", deadline: .now + .seconds(10), logger: Logger(label: "test"))
                return try backend.verify(.store(credential), context: context)
            }
        }

        func refusal(_ body: String) async throws -> GatewayError {
            guard case .failure(let error) = await verify(body) else { throw Unexpected() }
            return try #require(error as? GatewayError)
        }
    }

    struct Unexpected: Error {}

    static func body(_ token: String, product: String? = nil, package: String? = nil) -> String {
        var fields = [#""store": "google-play""#, #""purchase-token": "\#(token)""#]
        if let product { fields.append(#""product-id": "\#(product)""#) }
        if let package { fields.append(#""package-name": "\#(package)""#) }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    @Test func aPurchasedProductEntitlesUnderItsOrderIdQualifiedByStoreAndApp() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        var purchase = SimGooglePurchase(token: "tok-book", packageName: Self.package, productId: "book.1")
        purchase.orderId = "GPA.3371-1234-5678-90123"
        purchase.accountId = "alice"
        stand.google.add([purchase])
        let purchases = try await Store(stand, account).verify(Self.body("tok-book")).get()
        #expect(purchases.environment == "Production")
        #expect(purchases.bundleId == Self.package)
        let transaction = try #require(purchases.transactions.first)
        #expect(purchases.transactions.count == 1)
        #expect(transaction.originalTransactionId == "google-play:com.example.reader:GPA.3371-1234-5678-90123")
        #expect(transaction.transactionId == transaction.originalTransactionId)
        #expect(transaction.productId == "book.1")
        #expect(transaction.cancellationDate == nil)
        #expect(transaction.accountToken == "alice")
        #expect(stand.google.calls["purchases.productsv2.getproductpurchasev2"] == 1)
    }

    @Test func aPurchaseWithoutAnOrderIdIsNamedByADigestOfItsTokenNeverTheToken() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        stand.google.add([SimGooglePurchase(token: "tok-promo-secret", packageName: Self.package, productId: "book.1")])
        let purchases = try await Store(stand, account).verify(Self.body("tok-promo-secret")).get()
        let id = try #require(purchases.transactions.first?.originalTransactionId)
        #expect(id.hasPrefix("google-play:com.example.reader:token-"))
        #expect(!id.contains("tok-promo-secret"))
        #expect(
            id
                == (try await Store(stand, account).verify(Self.body("tok-promo-secret")).get()).transactions[0]
                .originalTransactionId)
    }

    @Test func aPendingPurchaseIsNotYetEntitled() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        var purchase = SimGooglePurchase(token: "tok-cash", packageName: Self.package, productId: "book.1")
        purchase.state = "PENDING"
        stand.google.add([purchase])
        let refusal = try await Store(stand, account).refusal(Self.body("tok-cash"))
        #expect(refusal.code.name == "purchase_pending")
        #expect(refusal.status == 402)
    }

    @Test func aCancelledPurchaseIsRecordedAsCancelled() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        var purchase = SimGooglePurchase(token: "tok-refunded", packageName: Self.package, productId: "book.1")
        purchase.orderId = "GPA.1111-2222-3333-44444"
        purchase.state = "CANCELLED"
        stand.google.add([purchase])
        let purchases = try await Store(stand, account).verify(Self.body("tok-refunded")).get()
        #expect(purchases.transactions.first?.cancellationDate != nil)
        #expect(EntitlementRules.entitlements(from: purchases.transactions, catalog: Self.catalog, now: Date()).isEmpty)
    }

    @Test func testPurchasesAreTheSandboxAndFollowTheSandboxPolicy() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        var purchase = SimGooglePurchase(token: "tok-tester", packageName: Self.package, productId: "book.1")
        purchase.test = true
        stand.google.add([purchase])
        #expect(try await Store(stand, account).verify(Self.body("tok-tester")).get().environment == "Sandbox")
        let refusal = try await Store(stand, account, ["accept_sandbox": "false"]).refusal(Self.body("tok-tester"))
        #expect(refusal.code.name == "sandbox_not_accepted")
    }

    @Test func anotherAppsPurchaseIsABundleMismatch() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        let store = try Store(stand, account)
        let refusal = try await store.refusal(Self.body("tok", package: "com.example.other"))
        #expect(refusal.code.name == "bundle_mismatch")
        // Google itself knows the token only for its own app.
        stand.google.add([SimGooglePurchase(token: "tok-other", packageName: "com.example.other", productId: "book.1")])
        #expect(try await store.refusal(Self.body("tok-other")).code.name == "purchase_not_found")
        let several = try Store(stand, account, ["package_names": "[com.example.reader, com.example.other]"])
        let unnamed = try await several.refusal(Self.body("tok-other"))
        #expect(unnamed.status == 400)
        #expect(unnamed.message.contains("package-name"))
        #expect(
            try await several.verify(Self.body("tok-other", package: "com.example.other")).get().bundleId
                == "com.example.other")
    }

    @Test func aSubscriptionIsReadAsOnePurchaseWithAPeriodPerOrder() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        var purchase = SimGooglePurchase(
            token: "tok-sub", packageName: Self.package, productId: "magazine.monthly", subscription: true)
        purchase.orderId = "GPA.5555-6666-7777-88888..2"
        purchase.expiresInS = 3600
        let added = Date()
        stand.google.add([purchase])
        let purchases = try await Store(stand, account).verify(Self.body("tok-sub", product: "magazine.monthly")).get()
        let period = try #require(purchases.transactions.first)
        #expect(period.originalTransactionId == "google-play:com.example.reader:GPA.5555-6666-7777-88888")
        #expect(period.transactionId == "google-play:com.example.reader:GPA.5555-6666-7777-88888..2")
        #expect(period.webOrderLineItemId == period.transactionId)
        let expires = try #require(period.expiresDate)
        #expect(expires >= added.addingTimeInterval(3599) && expires <= Date().addingTimeInterval(3601))
        #expect(stand.google.calls["purchases.subscriptionsv2.get"] == 1)
        #expect(stand.google.calls["purchases.productsv2.getproductpurchasev2"] == nil)
        let entitled = EntitlementRules.entitlements(from: purchases.transactions, catalog: Self.catalog, now: Date())
        #expect(entitled.map(\.productId) == ["magazine.monthly"])

        var lapsed = purchase
        lapsed.token = "tok-lapsed"
        lapsed.state = "EXPIRED"
        lapsed.expiresInS = -60
        stand.google.add([lapsed])
        let over = try await Store(stand, account).verify(Self.body("tok-lapsed", product: "magazine.monthly")).get()
        #expect(EntitlementRules.entitlements(from: over.transactions, catalog: Self.catalog, now: Date()).isEmpty)
    }

    @Test func googlesProductIdsAreTheCatalogsByItsStoreIds() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        stand.google.add([
            SimGooglePurchase(token: "tok-atlas", packageName: Self.package, productId: "atlas_android"),
            SimGooglePurchase(
                token: "tok-weekly", packageName: Self.package, productId: "weekly_android", subscription: true),
        ])
        let store = try Store(stand, account)
        #expect(
            try await store.verify(Self.body("tok-atlas")).get().transactions.map(\.productId) == ["com.example.atlas"])
        let weekly = try await store.verify(Self.body("tok-weekly", product: "weekly_android")).get()
        #expect(weekly.transactions.map(\.productId) == ["com.example.weekly"])
        #expect(stand.google.calls["purchases.subscriptionsv2.get"] == 1)
    }

    @Test func aSubscriptionThatReplacedAnotherEndsTheOldOne() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        var old = SimGooglePurchase(
            token: "tok-monthly", packageName: Self.package, productId: "magazine.monthly", subscription: true)
        old.orderId = "GPA.1000-0000-0000-00001..3"
        var new = SimGooglePurchase(
            token: "tok-weekly-up", packageName: Self.package, productId: "weekly_android", subscription: true)
        new.orderId = "GPA.2000-0000-0000-00002"
        new.linkedPurchaseToken = "tok-monthly"
        stand.google.add([old, new])
        let store = try Store(stand, account)
        let purchases = try await store.verify(Self.body("tok-weekly-up", product: "weekly_android")).get()
        let byOriginal = Dictionary(grouping: purchases.transactions, by: \.originalTransactionId)
        let replaced = try #require(byOriginal["google-play:com.example.reader:GPA.1000-0000-0000-00001"]?.first)
        #expect(replaced.cancellationDate != nil)
        #expect(replaced.productId == "magazine.monthly")
        let current = try #require(byOriginal["google-play:com.example.reader:GPA.2000-0000-0000-00002"]?.first)
        #expect(current.cancellationDate == nil)
        let entitled = EntitlementRules.entitlements(from: purchases.transactions, catalog: Self.catalog, now: Date())
        #expect(entitled.map(\.productId) == ["com.example.weekly"])
        #expect(stand.google.calls["purchases.subscriptionsv2.get"] == 2)

        // The old token gone from Google: the new purchase is recorded all the same.
        var orphan = new
        orphan.token = "tok-orphan"
        orphan.orderId = "GPA.3000-0000-0000-00003"
        orphan.linkedPurchaseToken = "tok-long-gone"
        stand.google.add([orphan])
        let alone = try await store.verify(Self.body("tok-orphan", product: "weekly_android")).get()
        #expect(
            alone.transactions.map(\.originalTransactionId) == [
                "google-play:com.example.reader:GPA.3000-0000-0000-00003"
            ])
    }

    @Test func googlesAnswersAreCachedButItsRefusalsAreNot() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        stand.google.add([SimGooglePurchase(token: "tok-cached", packageName: Self.package, productId: "book.1")])
        let store = try Store(stand, account, ["cache_ttl_s": "3600"])
        let first = try await store.verify(Self.body("tok-cached")).get()
        let second = try await store.verify(Self.body("tok-cached")).get()
        #expect(second.transactions == first.transactions)
        #expect("\(second.logMetadata["cached"] ?? "")" == "true")
        #expect(stand.google.calls["purchases.productsv2.getproductpurchasev2"] == 1)
        // A pending purchase is asked again: it may be paid by the next request.
        var pending = SimGooglePurchase(token: "tok-later", packageName: Self.package, productId: "book.1")
        pending.state = "PENDING"
        stand.google.add([pending])
        #expect(try await store.refusal(Self.body("tok-later")).code.name == "purchase_pending")
        pending.state = nil
        stand.google.add([pending])
        #expect(try await store.verify(Self.body("tok-later")).get().transactions.count == 1)
        let uncached = try Store(stand, account, ["cache_ttl_s": "0"])
        _ = try await uncached.verify(Self.body("tok-cached")).get()
        _ = try await uncached.verify(Self.body("tok-cached")).get()
        #expect(stand.google.calls["purchases.productsv2.getproductpurchasev2"] == 5)
    }

    @Test func googlesFailuresBecomeClearAnswers() async throws {
        let account = try GoogleTestAccount()
        let stand = try GoogleStandIn(account)
        let store = try Store(stand, account)
        #expect(try await store.refusal(Self.body("tok-unknown")).code.name == "purchase_not_found")
        // Bought, then no longer valid (410): the purchase is over, and the backend says which, by the digest
        // it was recorded under, for the recorder to end it.
        stand.google.add([SimGooglePurchase(token: "tok-gone", packageName: Self.package, productId: "book.1")])
        let uncached = try Store(stand, account, ["cache_ttl_s": "0"])
        let bought = try await uncached.verify(Self.body("tok-gone")).get()
        let handle = try #require(bought.handles.first)
        #expect(bought.handles.count == 1)
        #expect(handle.handle == TokenDigest.hex("tok-gone"))
        #expect(handle.originalTransactionId == bought.transactions.first?.originalTransactionId)
        var gone = SimGooglePurchase(token: "tok-gone", packageName: Self.package, productId: "book.1")
        gone.gone = true
        stand.google.add([gone])
        guard case .failure(let error) = await uncached.verify(Self.body("tok-gone")) else { throw Unexpected() }
        let ended = try #require(error as? StorePurchaseEnded)
        #expect(ended.handle == handle.handle)
        #expect(ended.store == "google-play")
        #expect(ended.answer.status == 422)
        #expect(ended.answer.code.name == "purchase_not_found")
        #expect(ended.answer.message == "Google Play says this purchase is no longer valid.")
        stand.google.add([SimGooglePurchase(token: "tok", packageName: Self.package, productId: "book.1")])
        let endpoint = "purchases.productsv2.getproductpurchasev2"
        try stand.play([SimGoogleStep(endpoint: endpoint, httpStatus: 403)])
        let refused = try await store.refusal(Self.body("tok"))
        #expect(refused.code.name == "upstream_misconfigured")
        #expect(refused.status == 502)
        try stand.play(Array(repeating: SimGoogleStep(endpoint: endpoint, httpStatus: 503), count: 3))
        let down = try await store.refusal(Self.body("tok"))
        #expect(down.code.name == "upstream_unavailable")
        #expect(down.status == 503)
        #expect(down.headers.contains { $0.name == "Retry-After" })
        #expect(store.backend.lastUpstreamError?.contains("503") == true)
    }

    @Test func aMalformedTokenIsABadRequestAndAnotherStoresBodyIsNotGooglePlays() async throws {
        for body in [
            #"{"store": "google-play", "purchase-token": ""}"#, #"{"store": "google-play", "purchase-token": "a b"}"#,
            #"{"store": "google-play", "purchase-token": 7}"#, #"{"store": "google-play"}"#,
            "{\"store\": \"google-play\", \"purchase-token\": \"\(String(repeating: "a", count: 5000))\"}",
        ] {
            let request = GatewayRequest(method: .post, path: "/v1/verify", body: .complete(Array(body.utf8)))
            let parsed = try #require(try PurchaseBody(from: request, notAnObject: .badRequest("not an object")))
            #expect(throws: GatewayError.self, "\(body.prefix(60))") {
                try GooglePlayVerification.credential(in: parsed)
            }
        }
        for body in [#"{"receipt-data": "abc"}"#, #"{"store": "app-store", "purchase-token": "x"}"#] {
            let request = GatewayRequest(method: .post, path: "/v1/verify", body: .complete(Array(body.utf8)))
            let parsed = try #require(try PurchaseBody(from: request, notAnObject: .badRequest("not an object")))
            #expect(try GooglePlayVerification.credential(in: parsed) == nil)
        }
    }
}
