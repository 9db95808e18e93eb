import AppStoreSim
import Foundation
import GoogleTestSupport
import Logging
import NIOHTTP1
import Testing

@testable import GooglePlayAPI

/// The Play Developer API client against Google's stand-in: each method's path and HTTP method as Google's
/// discovery document gives them, the answers read, and each failure mode.
@Suite struct GooglePlayClientTests {
    static let logger = Logger(label: "test")
    static let package = "com.example.reader"

    static func deadline() -> ContinuousClock.Instant { .now + .seconds(10) }

    @Test func everyMethodIsTheOneGooglesDiscoveryDocumentDescribes() async throws {
        let printed = try await Python.run(
            """
            import json, os, sys, googleapiclient
            path = os.path.join(os.path.dirname(googleapiclient.__file__), "discovery_cache", "documents", "androidpublisher.v3.json")
            methods = {}
            def walk(resource):
                for method in resource.get("methods", {}).values():
                    query = sorted(n for n, p in method.get("parameters", {}).items() if p.get("location") == "query")
                    methods[method["id"]] = [method["httpMethod"], method["flatPath"]] + query
                for child in resource.get("resources", {}).values():
                    walk(child)
            walk(json.load(open(path)))
            print(json.dumps(methods))
            """, arguments: [])
        let methods = try #require(try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: [String]])
        for endpoint in GooglePlayEndpoint.allCases {
            let described = try #require(methods["androidpublisher." + endpoint.rawValue], "\(endpoint)")
            #expect(Array(described.prefix(2)) == [endpoint.method.rawValue, endpoint.pathTemplate], "\(endpoint)")
            #expect(Set(endpoint.queryParameters).isSubset(of: described.dropFirst(2)), "\(endpoint)")
        }
    }

    /// A refund review's body names only the fields Google's discovery document gives `OrdersReviewRefundRequest`
    /// and `ConsumptionUsageEvent`, all of the request's when the facts have them; Google's side takes it; and
    /// what the ledger records of it holds everything but the pending refund token.
    @Test func aRefundReviewCarriesTheFieldsGoogleDefinesAndIsTaken() async throws {
        let printed = try await Python.run(
            """
            import json, os, googleapiclient
            path = os.path.join(os.path.dirname(googleapiclient.__file__), "discovery_cache", "documents", "androidpublisher.v3.json")
            schemas = json.load(open(path))["schemas"]
            print(json.dumps({n: sorted(schemas[n]["properties"]) for n in ["OrdersReviewRefundRequest", "ConsumptionUsageEvent"]}))
            """, arguments: [])
        let schemas = try #require(try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: [String]])
        let review = RefundReview(
            pendingRefundToken: "pending-secret", sampleContentProvided: true, refundPreference: .decline,
            consumptionPercentageMilliunits: 100_000,
            usageEvents: [
                RefundReview.UsageEvent(time: Date(timeIntervalSince1970: 1_790_000_000.25), description: "read")
            ])
        let body = try #require(try JSONSerialization.jsonObject(with: Data(review.json)) as? [String: Any])
        #expect(Set(body.keys) == Set(try #require(schemas["OrdersReviewRefundRequest"])))
        let event = try #require((body["consumptionUsageEvents"] as? [[String: Any]])?.first)
        #expect(Set(event.keys).isSubset(of: try #require(schemas["ConsumptionUsageEvent"])))
        #expect(event["consumptionTime"] as? String == "2026-09-21T14:13:20.250Z")
        #expect(body["pendingRefundToken"] as? String == "pending-secret")
        #expect(!review.recordedJSON.contains("pending-secret"))
        #expect(review.recordedJSON.contains("\"refundPreference\":\"DECLINE\""))

        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        var purchase = SimGooglePurchase(token: "tok-reviewed", packageName: Self.package, productId: "book.1")
        purchase.orderId = "GPA.3371-0000-0000-00001"
        stand.google.add([purchase])
        let client = try stand.client(test)
        try await OnThread.value { () throws(GooglePlayFailure) in
            try client.reviewRefund(
                packageName: Self.package, orderId: "GPA.3371-0000-0000-00001", review: review,
                deadline: Self.deadline(), logger: Self.logger)
        }
        let unknown = await OnThread.result { () throws(GooglePlayFailure) in
            try client.reviewRefund(
                packageName: Self.package, orderId: "GPA.3371-0000-0000-00002", review: review,
                deadline: Self.deadline(), logger: Self.logger)
        }
        guard case .failure(let refused) = unknown else {
            Issue.record("a review of an order Google does not know was taken")
            return
        }
        #expect(refused.kind == .notFound)
        let taken = try #require(
            stand.google.answer(method: "GET", path: "/_sim/google/refund-reviews", authorization: nil, body: []))
        let reviews = try #require(try JSONSerialization.jsonObject(with: Data(taken.body)) as? [[String: Any]])
        #expect(reviews.map { $0["order_id"] as? String } == ["GPA.3371-0000-0000-00001"])
        #expect(reviews.first?["kept"] as? Bool == true)
    }

    @Test func aOneTimePurchaseIsReadAsGoogleAnswersIt() async throws {
        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        var purchase = SimGooglePurchase(token: "tok-book-1", packageName: Self.package, productId: "book.1")
        purchase.orderId = "GPA.3371-1234-5678-90123"
        purchase.accountId = "account-7"
        purchase.test = true
        purchase.quantity = 3
        let added = Date()
        stand.google.add([purchase])
        let client = try stand.client(test)
        let read = try await OnThread.value {
            try client.productPurchase(
                packageName: Self.package, token: "tok-book-1", deadline: Self.deadline(), logger: Self.logger)
        }
        #expect(read.orderId == "GPA.3371-1234-5678-90123")
        #expect(read.state == .purchased)
        #expect(read.isTest)
        #expect(read.lineItems.map(\.productId) == ["book.1"])
        #expect(read.lineItems.first?.quantity == 3)
        #expect(read.lineItems.first?.isConsumed == false)
        #expect(!read.isAcknowledged)
        #expect(read.obfuscatedExternalAccountId == "account-7")
        // The stand-in's times count from when the fixture was added (RFC 3339 to the second).
        let completed = try #require(read.purchaseCompletionTime)
        #expect(completed >= added.addingTimeInterval(-1) && completed <= Date().addingTimeInterval(1))
    }

    @Test func aSubscriptionIsReadWithTheTokenItReplaced() async throws {
        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        var purchase = SimGooglePurchase(
            token: "tok-sub-2", packageName: Self.package, productId: "magazine.monthly", subscription: true)
        purchase.linkedPurchaseToken = "tok-sub-1"
        purchase.expiresInS = 3600
        purchase.accountId = "account-7"
        let added = Date()
        stand.google.add([purchase])
        let client = try stand.client(test)
        let read = try await OnThread.value {
            try client.subscriptionPurchase(
                packageName: Self.package, token: "tok-sub-2", deadline: Self.deadline(), logger: Self.logger)
        }
        #expect(read.state == .active)
        #expect(read.linkedPurchaseToken == "tok-sub-1")
        #expect(read.lineItems.map(\.productId) == ["magazine.monthly"])
        let expiry = try #require(read.lineItems.first?.expiryTime)
        #expect(expiry >= added.addingTimeInterval(3599) && expiry <= Date().addingTimeInterval(3601))
        #expect(!read.isTest)
        #expect(read.obfuscatedExternalAccountId == "account-7")
    }

    @Test func acknowledgeAndConsumeReachGoogle() async throws {
        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        stand.google.add([
            SimGooglePurchase(token: "tok-coins", packageName: Self.package, productId: "coins.100"),
            SimGooglePurchase(
                token: "tok-sub", packageName: Self.package, productId: "magazine.monthly", subscription: true),
        ])
        let client = try stand.client(test)
        try await OnThread.value {
            try client.acknowledge(
                packageName: Self.package, productId: "coins.100", token: "tok-coins", subscription: false,
                deadline: Self.deadline(), logger: Self.logger)
            try client.consume(
                packageName: Self.package, productId: "coins.100", token: "tok-coins", deadline: Self.deadline(),
                logger: Self.logger)
            try client.acknowledge(
                packageName: Self.package, productId: "magazine.monthly", token: "tok-sub", subscription: true,
                deadline: Self.deadline(), logger: Self.logger)
        }
        #expect(stand.google.purchase("tok-coins")?.acknowledged == true)
        #expect(stand.google.purchase("tok-coins")?.consumed == true)
        #expect(stand.google.purchase("tok-sub")?.acknowledged == true)
        #expect(stand.google.calls["purchases.products.acknowledge"] == 1)
        #expect(stand.google.calls["purchases.products.consume"] == 1)
        #expect(stand.google.calls["purchases.subscriptions.acknowledge"] == 1)
        #expect(stand.google.calls["token"] == 1)
    }

    @Test func aTokenFromTheClientStaysOnePathSegment() async throws {
        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        let client = try stand.client(test)
        for hostile in ["../../voidedpurchases", "x/../../../../token", "a:acknowledge", "..", "a?b#c", "%2e%2e"] {
            let outcome = await OnThread.result { () throws(GooglePlayFailure) in
                try client.productPurchase(
                    packageName: Self.package, token: hostile, deadline: Self.deadline(), logger: Self.logger)
            }
            guard case .failure(let failure) = outcome else {
                Issue.record("\(hostile) was found")
                continue
            }
            #expect(failure.kind == .notFound, "\(hostile)")
        }
        #expect(stand.google.calls["purchases.productsv2.getproductpurchasev2"] == 6)
        #expect(Set(stand.google.calls.keys) == ["token", "purchases.productsv2.getproductpurchasev2"])
    }

    @Test(arguments: [
        (404, "purchaseTokenNotFound", GooglePlayFailure.Kind.notFound),
        (410, "purchaseTokenNoLongerValid", .gone),
        (400, "invalid", .rejected),
        (403, "permissionDenied", .misconfigured),
    ])
    func googlesRefusalsAreToldApart(status: Int, reason: String, kind: GooglePlayFailure.Kind) async throws {
        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        stand.google.add([SimGooglePurchase(token: "tok", packageName: Self.package, productId: "book.1")])
        var step = SimGoogleStep(endpoint: "purchases.productsv2.getproductpurchasev2", httpStatus: status)
        step.reason = reason
        try stand.play([step])
        let failure = try await Self.failure(of: try stand.client(test), token: "tok")
        #expect(failure.kind == kind)
        #expect(failure.reason.contains(reason))
        #expect(stand.google.calls["purchases.productsv2.getproductpurchasev2"] == 1)
    }

    @Test func aRefusedAccessTokenIsReplacedOnce() async throws {
        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        stand.google.add([SimGooglePurchase(token: "tok", packageName: Self.package, productId: "book.1")])
        try stand.play([SimGoogleStep(endpoint: "purchases.productsv2.getproductpurchasev2", httpStatus: 401)])
        let client = try stand.client(test)
        let read = try await OnThread.value {
            try client.productPurchase(
                packageName: Self.package, token: "tok", deadline: Self.deadline(), logger: Self.logger)
        }
        #expect(read.state == .purchased)
        #expect(stand.google.calls["token"] == 2)
        try stand.play(
            Array(
                repeating: SimGoogleStep(endpoint: "purchases.productsv2.getproductpurchasev2", httpStatus: 401),
                count: 2))
        let failure = try await Self.failure(of: client, token: "tok")
        #expect(failure.kind == .misconfigured)
        #expect(stand.google.calls["token"] == 3)
    }

    @Test func googleInTroubleIsTriedAgainAndA429PastTheDeadlineIsRateLimited() async throws {
        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        stand.google.add([SimGooglePurchase(token: "tok", packageName: Self.package, productId: "book.1")])
        let endpoint = "purchases.productsv2.getproductpurchasev2"
        try stand.play([
            SimGoogleStep(endpoint: endpoint, httpStatus: 503), SimGoogleStep(endpoint: endpoint, httpStatus: 500),
        ])
        let client = try stand.client(test)
        let read = try await OnThread.value {
            try client.productPurchase(
                packageName: Self.package, token: "tok", deadline: Self.deadline(), logger: Self.logger)
        }
        #expect(read.state == .purchased)
        #expect(stand.google.calls[endpoint] == 3)

        var slowDown = SimGoogleStep(endpoint: endpoint, httpStatus: 429)
        slowDown.retryAfterS = 120
        try stand.play([slowDown])
        // Google said to wait: the next call, on the same thread right after, does not reach it.
        let calls = await Self.twoCalls(to: client)
        guard case .failure(let limited) = calls.0, case .failure(let held) = calls.1 else {
            throw Unexpected.answered
        }
        #expect(limited.kind == .rateLimited)
        #expect(limited.retryAfter == .seconds(120))
        #expect(held.kind == .rateLimited)
        #expect(stand.google.calls[endpoint] == 4)
        #expect(client.lastError?.contains("rate") == true)

        var garbage = SimGoogleStep(endpoint: endpoint)
        garbage.body = "<html>not JSON</html>"
        let fresh = try stand.client(test)
        try stand.play([garbage])
        #expect(try await Self.failure(of: fresh, token: "tok").kind == .unavailable)
    }

    @Test func theGatewaysOwnBudgetStopsShortOfGoogle() async throws {
        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        stand.google.add([SimGooglePurchase(token: "tok", packageName: Self.package, productId: "book.1")])
        // One call a minute: the first is answered, the second is not.
        let client = try stand.client(test, ["calls_per_minute": "1"])
        let (first, second) = await Self.twoCalls(to: client)
        #expect(try first.get().state == .purchased)
        guard case .failure(let over) = second else { throw Unexpected.answered }
        #expect(over.kind == .rateLimited)
        #expect(over.reason.contains("budget"))
        let wait = try #require(over.retryAfter)
        #expect(wait > .zero && wait <= .seconds(60))
        #expect(stand.google.calls["purchases.productsv2.getproductpurchasev2"] == 1)
    }

    static func failure(of client: GooglePlayClient, token: String) async throws -> GooglePlayFailure {
        let outcome = await OnThread.result { () throws(GooglePlayFailure) in
            try client.productPurchase(packageName: package, token: token, deadline: deadline(), logger: logger)
        }
        guard case .failure(let failure) = outcome else { throw Unexpected.answered }
        return failure
    }

    /// Two reads of "tok" back to back on one thread of their own. A test awaiting the Swift pool between them
    /// once saw a loaded CI machine's minute pass (end-to-end tests blocking in sync code held both its threads),
    /// and a budget refilled.
    static func twoCalls(
        to client: GooglePlayClient
    ) async -> (Result<ProductPurchaseV2, GooglePlayFailure>, Result<ProductPurchaseV2, GooglePlayFailure>) {
        await OnThread.value {
            let read = { () throws(GooglePlayFailure) in
                try client.productPurchase(packageName: package, token: "tok", deadline: deadline(), logger: logger)
            }
            return (Result(catching: read), Result(catching: read))
        }
    }

    enum Unexpected: Error { case answered }
}
