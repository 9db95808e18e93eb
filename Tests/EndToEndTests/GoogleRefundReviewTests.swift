import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// Google Play's pending refund reviews (a customer disputes a charge), pushed through nginx and answered by the
    /// gateway through `orders.reviewrefund` on Google's stand-in, with the ledger's delivery facts under
    /// `refund_requests`.
    @Suite struct GoogleRefundReviews {
        typealias Pushes = GoogleNotifications

        static func gateway(consented: Bool) throws -> VerifyDeployment {
            try VerifyDeployment(
                extra: "refund_requests: {customer_consented: \(consented), refund_preference: by-delivery}\n",
                google: [:])
        }

        static func review(_ order: String, token: String) -> [String: Any] {
            [
                "pendingRefundReviewNotification": [
                    "version": "1.0", "orderId": order, "refundReason": 7, "pendingRefundToken": token,
                ] as [String: Any]
            ]
        }

        /// The answers Google's side took, waiting (bounded) for `count`.
        static func answers(_ gateway: VerifyDeployment, count: Int) throws -> [String: [String: Any]] {
            var answers: [String: [String: Any]] = [:]
            _ = ManagedProcess.poll(for: .seconds(20)) {
                let reviews = (try? gateway.appStore.googleRefundReviews()) ?? []
                answers = [:]
                for review in reviews {
                    guard let order = review["order_id"] as? String, let body = review["body"] as? [String: Any]
                    else { continue }
                    answers[order] = body
                }
                return answers.count >= count
            }
            return answers
        }

        /// The requests the ledger holds about `order`'s purchase, waiting (bounded) until none is pending.
        static func settled(_ gateway: VerifyDeployment, _ order: String) throws -> [StoredConsumptionRequest] {
            let ledger = try SQLiteLedger(path: gateway.ledgerPath)
            var stored: [StoredConsumptionRequest] = []
            _ = ManagedProcess.poll(for: .seconds(20)) {
                stored =
                    (try? ledger.consumptionRequests(
                        environment: "Production", originalTransactionId: Pushes.original(order))) ?? []
                return !stored.isEmpty && stored.allSatisfy { $0.state != .pending }
            }
            return stored
        }

        /// A downloaded purchase is answered DECLINE with its download as usage, one never downloaded APPROVE;
        /// each once, however often Pub/Sub delivers the review; an order the gateway never sold is not answered.
        /// The answer is on the purchase's timeline (page and `storegate lookup` by Google's order id), and the
        /// pending refund token is sent to Google only: in no log line, no ledger answer, no support page.
        @Test func aRefundReviewIsAnsweredOnceWithWhatTheLedgerSaysWasDelivered() throws {
            let gateway = try Self.gateway(consented: true)
            defer { gateway.stop() }
            let (read, unread) = ("GPA.3300-0000-0000-00060", "GPA.3300-0000-0000-00061")
            let token = try Pushes.bought("tok-e2e-review-read", order: read, on: gateway)
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 200)
            _ = try Pushes.bought("tok-e2e-review-unread", order: unread, on: gateway)

            let pushed = try gateway.pushGoogle(
                Self.review(read, token: "pending-read-secret"), messageId: "m-review-read")
            #expect(pushed.status == 200, "\(pushed.text)")
            #expect(pushed.json["status"] as? String == "recorded")
            let again = try gateway.pushGoogle(
                Self.review(read, token: "pending-read-secret"), messageId: "m-review-read")
            #expect(again.json["status"] as? String == "duplicate", "\(again.text)")
            #expect(
                try gateway.pushGoogle(Self.review(unread, token: "pending-unread-secret"), messageId: "m-review-2")
                    .status == 200)
            let stranger = try gateway.pushGoogle(
                Self.review("GPA.3300-0000-0000-00069", token: "pending-stranger-secret"), messageId: "m-review-3")
            #expect(stranger.status == 200, "a review of an order never sold here is taken, and not answered")

            let answers = try Self.answers(gateway, count: 2)
            let readAnswer = try #require(answers[read], "\(answers)")
            let events = try #require(readAnswer["consumptionUsageEvents"] as? [[String: Any]])
            #expect(events.count == 1)
            #expect(events.first?["consumptionTime"] is String)
            #expect(readAnswer["pendingRefundToken"] as? String == "pending-read-secret")
            #expect(readAnswer["refundPreference"] as? String == "DECLINE")
            #expect(readAnswer["consumptionPercentageMilliunits"] as? Int == 100_000)
            #expect(readAnswer["sampleContentProvided"] as? Bool == false)
            #expect(
                answers[unread] as NSDictionary?
                    == [
                        "pendingRefundToken": "pending-unread-secret", "refundPreference": "APPROVE",
                        "consumptionPercentageMilliunits": 0, "sampleContentProvided": false,
                    ] as NSDictionary)
            let stored = try Self.settled(gateway, read)
            #expect(stored.map(\.state) == [.answered])
            #expect(stored.first?.outcome == "accepted by Google")
            let recorded = try #require(stored.first?.answer)
            #expect(recorded.contains("\"refundPreference\":\"DECLINE\""), "\(recorded)")
            #expect(!recorded.contains("pending-read-secret"))
            #expect(try Self.settled(gateway, unread).map(\.state) == [.answered])
            #expect(try gateway.appStore.googleCalls()["orders.reviewrefund"] == 2, "once each, none for a stranger")
            #expect(
                try gateway.appStore.googleRefundReviews().allSatisfy { $0["kept"] as? Bool == true },
                "no review answered twice")

            // Support finds the purchase by Google's order id, with the review and its answer on the timeline.
            let lookup = try SupportLookup.lookUp(gateway, ["--order-id", read])
            #expect(lookup.status == 0, "\(lookup.output)")
            #expect(lookup.output.contains("PENDING_REFUND_REVIEW"), "\(lookup.output)")
            #expect(lookup.output.contains("DECLINE"), "\(lookup.output)")
            #expect(lookup.output.contains("accepted by Google"), "\(lookup.output)")
            let page = try gateway.deployment.request("/v1/support?q=\(read)")
            #expect(page.status == 200)
            #expect(page.text.contains("DECLINE"), "\(page.text)")
            for secret in ["pending-read-secret", "pending-unread-secret", "pending-stranger-secret"] {
                #expect(!gateway.logs.contains(secret), "\(secret) in a log line")
                #expect(!lookup.output.contains(secret))
                #expect(!page.text.contains(secret))
            }
        }

        /// Without the customers' consent nothing is sent to Google: the review is settled unanswered, with why;
        /// with it, a review Google sent more than 24 hours ago (Pub/Sub redelivered it late) is not sent either.
        @Test func withoutTheCustomersConsentOrPastGooglesWindowNothingIsSent() throws {
            let silent = try Self.gateway(consented: false)
            defer { silent.stop() }
            let order = "GPA.3300-0000-0000-00062"
            _ = try Pushes.bought("tok-e2e-review-no-consent", order: order, on: silent)
            #expect(
                try silent.pushGoogle(Self.review(order, token: "pending-no-consent"), messageId: "m-review-4")
                    .status == 200)
            let stored = try Self.settled(silent, order)
            #expect(stored.map(\.state) == [.unanswered])
            #expect(stored.first?.outcome?.contains("did not consent") == true, "\(stored)")
            #expect(try silent.appStore.googleCalls()["orders.reviewrefund"] == nil)

            let gateway = try Self.gateway(consented: true)
            defer { gateway.stop() }
            let late = "GPA.3300-0000-0000-00063"
            _ = try Pushes.bought("tok-e2e-review-late", order: late, on: gateway)
            let pushed = try gateway.pushGoogle(
                Self.review(late, token: "pending-late"), messageId: "m-review-5",
                sentAt: Date(timeIntervalSinceNow: -25 * 3_600))
            #expect(pushed.status == 200, "\(pushed.text)")
            let settled = try Self.settled(gateway, late)
            #expect(settled.map(\.outcome) == ["Google's 24-hour answer window had passed"], "\(settled)")
            #expect(try gateway.appStore.googleCalls()["orders.reviewrefund"] == nil)
        }

        /// A review of a license tester's purchase (Google's sandbox) is recorded on that purchase's timeline, in
        /// the Sandbox environment it was recorded in.
        @Test func aSandboxPurchasesReviewIsOnItsTimeline() throws {
            let gateway = try Self.gateway(consented: true)
            defer { gateway.stop() }
            let order = "GPA.3300-0000-0000-00064"
            try gateway.appStore.addGoogle([
                GooglePlay.purchase("tok-e2e-review-test", SampleContent.issueId, ["order_id": order, "test": true])
            ])
            let bought = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: GooglePlay.body("tok-e2e-review-test"))
            #expect(bought.status == 200, "\(bought.text)")
            #expect(
                try gateway.pushGoogle(Self.review(order, token: "pending-sandbox"), messageId: "m-review-6")
                    .status == 200)
            let ledger = try SQLiteLedger(path: gateway.ledgerPath)
            var requests: [StoredConsumptionRequest] = []
            _ = ManagedProcess.poll(for: .seconds(20)) {
                requests =
                    (try? ledger.consumptionRequests(
                        environment: "Sandbox", originalTransactionId: Pushes.original(order))) ?? []
                return requests.first?.state == .answered
            }
            #expect(requests.map(\.state) == [.answered])
            let notified = try ledger.notifications(
                environment: "Sandbox", originalTransactionId: Pushes.original(order))
            #expect(notified.map(\.type) == ["PENDING_REFUND_REVIEW"])
        }
    }
}
