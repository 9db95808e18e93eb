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
@testable import GooglePlayAPI

/// Google's refund reviews answered from delivery facts: the review each `refund_preference` gives, and what
/// becomes of a review Google refuses, cannot take now, or asked about too long ago.
@Suite struct GoogleRefundReviewTests {
    static let package = GooglePlayBackendTests.package
    static let order = "GPA.3371-0000-0000-00007"

    static func policy(_ yaml: String) throws -> RefundRequestPolicy {
        let reader = try ConfigReader(yaml: yaml, source: "test", baseDirectory: "/tmp", environment: [:])
        return RefundRequestPolicy(reader.scoped("refund_requests"))
    }

    static let grant = Delivery(
        environment: "Production", productId: "issue", originalTransactionId: "o", contentSHA256: "", requestId: "r",
        deliveredAt: Date(timeIntervalSince1970: 1_790_000_000))
    static let read = DeliveryFacts(productId: "issue", hasContent: true, offersSample: true, grants: [grant])
    static let unread = DeliveryFacts(productId: "issue", hasContent: true, offersSample: false, grants: [])
    static let tip = DeliveryFacts(productId: "tip", hasContent: false, offersSample: false, grants: [])

    @Test func eachPreferenceLeansAsTheFactsSay() throws {
        let expected: [(String, RefundReview.Preference, RefundReview.Preference, RefundReview.Preference)] = [
            ("none", .neutral, .neutral, .neutral), ("decline-when-delivered", .decline, .neutral, .decline),
            ("grant-when-undelivered", .neutral, .approve, .neutral), ("by-delivery", .decline, .approve, .decline),
        ]
        for (name, whenRead, whenUnread, forATip) in expected {
            let policy = try Self.policy("refund_requests: {customer_consented: true, refund_preference: \(name)}")
            let review = { (facts: DeliveryFacts) in GoogleRefundReviews.review(of: facts, token: "t", under: policy) }
            #expect(review(Self.read).refundPreference == whenRead, "\(name)")
            #expect(review(Self.unread).refundPreference == whenUnread, "\(name)")
            #expect(review(Self.tip).refundPreference == forATip, "\(name)")
        }
        let policy = try Self.policy("refund_requests: {customer_consented: true}")
        let read = GoogleRefundReviews.review(of: Self.read, token: "t", under: policy)
        #expect(read.consumptionPercentageMilliunits == 100_000)
        #expect(read.sampleContentProvided)
        #expect(read.usageEvents.map(\.time) == [Self.grant.deliveredAt])
        #expect(
            GoogleRefundReviews.review(of: Self.unread, token: "t", under: policy).consumptionPercentageMilliunits == 0)
        #expect(
            GoogleRefundReviews.review(of: Self.tip, token: "t", under: policy).consumptionPercentageMilliunits == nil)
    }

    /// The answerer against Google's stand-in, as a serving gateway runs it.
    struct Answerer {
        let reviews: GoogleRefundReviews
        let stand: GoogleStandIn

        init(consented: Bool = true) throws {
            let account = try GoogleTestAccount()
            stand = try GoogleStandIn(account)
            var purchase = SimGooglePurchase(
                token: "tok-disputed", packageName: GoogleRefundReviewTests.package, productId: "book.1")
            purchase.orderId = GoogleRefundReviewTests.order
            stand.google.add([purchase])
            let (yaml, environment) = try stand.section(
                account, ["package_names": "[\(GoogleRefundReviewTests.package)]"])
            let reader = try ConfigReader(yaml: yaml, source: "test", baseDirectory: "/tmp", environment: environment)
            let settings = try #require(GooglePlaySettings(reader.scoped("google")))
            reviews = GoogleRefundReviews(
                client: GooglePlayClient(settings: settings.api, metricsFactory: NOOPMetricsHandler.instance),
                api: settings.api,
                policy: try GoogleRefundReviewTests.policy(
                    "refund_requests: {customer_consented: \(consented), refund_preference: by-delivery}"))
        }

        /// The answer to a review of `order` asked `age` seconds ago.
        func answer(order: String = GoogleRefundReviewTests.order, age: TimeInterval = 60) async -> Result<
            ConsumptionReply?, any Error
        > {
            let request = ConsumptionRequest(
                notificationUUID: "google-play:m-1", store: "google-play", environment: "Production",
                transactionId: "google-play:\(GoogleRefundReviewTests.package):\(order)",
                originalTransactionId: "google-play:\(GoogleRefundReviewTests.package):\(order)", productId: "issue",
                requestedAt: Date(timeIntervalSinceNow: -age), app: GoogleRefundReviewTests.package,
                subject: "pending-secret")
            let reviews = reviews
            return await OnThread.result { () throws(any Error) in
                try reviews.answer(
                    request, facts: GoogleRefundReviewTests.read,
                    context: RequestContext(requestId: "t", deadline: .now + .seconds(10), logger: Logger(label: "t")))
            }
        }
    }

    @Test func googlesRefusalSettlesAReviewAndItsTroubleDefersIt() async throws {
        let answerer = try Answerer()
        // Google in trouble for every attempt the client makes (`max_attempts`, 3).
        try answerer.stand.play(
            Array(repeating: SimGoogleStep(endpoint: "orders.reviewrefund", httpStatus: 503), count: 3))
        let deferred = await answerer.answer()
        #expect((try? deferred.get()) == nil, "Google's trouble throws, so the review is tried again")
        guard case .success(.answered(let answer, let outcome)) = await answerer.answer() else {
            Issue.record("a review Google can take now was not answered")
            return
        }
        #expect(outcome == "accepted by Google")
        #expect(answer.contains("\"refundPreference\":\"DECLINE\"") && !answer.contains("pending-secret"))
        guard case .success(.unanswered(let reason)) = await answerer.answer(order: "GPA.3371-0000-0000-00008") else {
            Issue.record("a review Google refused was not settled")
            return
        }
        #expect(reason.hasPrefix("Google refused the answer"), "\(reason)")
        guard case .success(.unanswered(let late)) = await answerer.answer(age: 25 * 3_600) else {
            Issue.record("a review past Google's window was sent")
            return
        }
        #expect(late == "Google's 24-hour answer window had passed")
        #expect(
            answerer.stand.google.calls["orders.reviewrefund"] == 5,
            "three attempts, one each after; none for the late one")
    }

    @Test func withoutConsentNothingIsSent() async throws {
        let answerer = try Answerer(consented: false)
        guard case .success(.unanswered(let reason)) = await answerer.answer() else {
            Issue.record("a review was answered without the customers' consent")
            return
        }
        #expect(reason.contains("did not consent"))
        #expect(answerer.stand.google.calls["orders.reviewrefund"] == nil)
    }
}
