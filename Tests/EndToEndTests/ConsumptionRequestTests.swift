import Crypto
import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// CONSUMPTION_REQUEST notifications through nginx, answered by the gateway with Send Consumption
    /// Information built from its own delivery records, sent to the stand-in's Server API (JWT checked).
    @Suite struct ConsumptionRequests {
        /// A gateway answering under `refund_requests`, or, with `appleConsented`, also under an older config's
        /// `apple.consumption`, which the App Store reads in its place.
        static func gateway(consented: Bool, appleConsented: Bool? = nil) throws -> VerifyDeployment {
            var apple = VerifyDeployment.trustingTestChain
            if let appleConsented {
                apple["consumption"] = "{customer_consented: \(appleConsented), refund_preference: by-delivery}"
            }
            return try VerifyDeployment(
                apple: apple, delivery: "stream", serverAPIKey: P256.Signing.PrivateKey(),
                extra: "refund_requests: {customer_consented: \(consented), refund_preference: by-delivery}\n")
        }

        /// The consumption answers the stand-in received, by transaction id, waiting (bounded) for `count`.
        static func answers(_ gateway: VerifyDeployment, count: Int) throws -> [String: [String: Any]] {
            var answers: [String: [String: Any]] = [:]
            _ = ManagedProcess.poll(for: .seconds(20)) {
                let calls = (try? gateway.appStore.apiCalls()) ?? []
                answers = [:]
                for call in calls where call["method"] as? String == "PUT" {
                    guard let path = call["path"] as? String, let body = call["body"] as? String,
                        let fields = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                    else { continue }
                    answers[String(path.split(separator: "/").last ?? ""), default: [:]] = fields
                }
                return answers.count >= count
            }
            return answers
        }

        /// Send Consumption Information's body, with the customers' consent and no sample offered.
        static func answer(_ status: String, consumed: Int?, _ preference: String) -> NSDictionary {
            var fields: [String: Any] = [
                "customerConsented": true, "sampleContentProvided": false, "deliveryStatus": status,
                "refundPreference": preference,
            ]
            if let consumed { fields["consumptionPercentage"] = consumed }
            return fields as NSDictionary
        }

        @Test func eachRequestIsAnsweredOnceWithWhatTheLedgerSaysWasDelivered() throws {
            let gateway = try Self.gateway(consented: true)
            defer { gateway.stop() }
            let (read, unread) = ("730001", "730002")
            try gateway.appStore.addAPI(
                [read, unread].map {
                    ServerAPIRoutes.purchase(SampleContent.issueId, $0, customer: "reader", environment: "Sandbox")
                })
            let readJWS = try SignedTransactions.signed(SampleContent.issueId, read)
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: SignedTransactions.body([readJWS]))
            let token = try #require(verified.downloadToken(for: SampleContent.issueId))
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 200)
            let unreadJWS = try SignedTransactions.signed(SampleContent.issueId, unread)
            #expect(
                try gateway.deployment.request(
                    "/v1/verify", method: "POST", body: SignedTransactions.body([unreadJWS])
                ).status == 200)

            let uuid = "consume-\(read)"
            let asked = try Notifications.post("CONSUMPTION_REQUEST", transaction: readJWS, uuid: uuid, to: gateway)
            #expect(asked.status == 200, "\(asked.text)")
            #expect(
                try Notifications.post("CONSUMPTION_REQUEST", transaction: unreadJWS, to: gateway).status == 200)
            // Apple sends the first again: a duplicate, answered no second time.
            #expect(
                try Notifications.post("CONSUMPTION_REQUEST", transaction: readJWS, uuid: uuid, to: gateway)
                    .json["status"] as? String == "duplicate")
            let answers = try Self.answers(gateway, count: 2)
            #expect(answers[read] as NSDictionary? == Self.answer("DELIVERED", consumed: 100_000, "DECLINE"))
            #expect(answers[unread] as NSDictionary? == Self.answer("UNDELIVERED_OTHER", consumed: 0, "GRANT_FULL"))
            let puts = try gateway.appStore.apiCalls().filter { $0["method"] as? String == "PUT" }
            #expect(
                puts.compactMap { $0["path"] as? String }.sorted() == [
                    "/sandbox/inApps/v2/transactions/consumption/\(read)",
                    "/sandbox/inApps/v2/transactions/consumption/\(unread)",
                ])
            #expect(puts.allSatisfy { $0["authorized"] as? Bool == true })
            // Settled in the ledger, with the body sent, once each.
            var stored: [StoredConsumptionRequest] = []
            _ = ManagedProcess.poll(for: .seconds(10)) {
                stored =
                    (try? SQLiteLedger(path: gateway.ledgerPath).consumptionRequests(
                        environment: "Sandbox", originalTransactionId: read)) ?? []
                return stored.first?.state == .answered
            }
            #expect(stored.map(\.state) == [.answered])
            #expect(stored.first?.answer?.contains(#""refundPreference":"DECLINE""#) == true)
            #expect(stored.first?.request.attempts == 1)
            #expect(gateway.logs.contains("consumption request answered"))
        }

        /// `apple.consumption` without consent, under a `refund_requests` with it: the App Store's own section wins.
        @Test func withoutTheCustomersConsentNothingIsSent() throws {
            let gateway = try Self.gateway(consented: true, appleConsented: false)
            defer { gateway.stop() }
            let jws = try SignedTransactions.signed(SampleContent.issueId, "730003")
            #expect(
                try gateway.deployment.request(
                    "/v1/verify", method: "POST", body: SignedTransactions.body([jws])
                ).status == 200)
            #expect(try Notifications.post("CONSUMPTION_REQUEST", transaction: jws, to: gateway).status == 200)
            let settled = ManagedProcess.poll(for: .seconds(20)) {
                gateway.logs.contains("consumption request not answered")
            }
            #expect(settled)
            #expect(gateway.logs.contains("customer_consented"))
            #expect(try gateway.appStore.apiCalls().filter { $0["method"] as? String == "PUT" }.isEmpty)
        }

        /// Item 6 of issue 32: a purchase whose every download failed on our side is UNDELIVERED_SERVER_OUTAGE, and
        /// `refund_preference: prorated` asks for a prorated refund of a subscription (Apple measures it by time:
        /// no percentage) while a fully delivered issue is declined and an undelivered one granted in full.
        @Test func failedDownloadsAreAnOutageAndProratedPreferenceGrantsByShare() throws {
            let gateway = try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain, delivery: "stream", serverAPIKey: P256.Signing.PrivateKey(),
                extra: "refund_requests: {customer_consented: true, refund_preference: prorated}\n")
            defer { gateway.stop() }
            let (read, failed, monthly) = ("731001", "731002", "731003")
            var subscription = ServerAPIRoutes.purchase(
                SampleContent.monthlyId, monthly, customer: "reader", environment: "Sandbox")
            subscription["type"] = "Auto-Renewable Subscription"
            subscription["expires"] = "+20d"
            try gateway.appStore.addAPI(
                [read, failed].map {
                    ServerAPIRoutes.purchase(SampleContent.issueId, $0, customer: "reader", environment: "Sandbox")
                } + [subscription])
            let readJWS = try SignedTransactions.signed(SampleContent.issueId, read)
            let failedJWS = try SignedTransactions.signed(SampleContent.issueId, failed)
            let monthlyJWS = try SignedTransactions.signed(
                SampleContent.monthlyId, monthly, type: "Auto-Renewable Subscription", expiresIn: 20)
            var tokens: [String: String] = [:]
            for (id, jws) in [(read, readJWS), (failed, failedJWS)] {
                let verified = try gateway.deployment.request(
                    "/v1/verify", method: "POST", body: SignedTransactions.body([jws]))
                let token = try #require(verified.downloadToken(for: SampleContent.issueId), "\(verified.text)")
                tokens[id] = token
            }
            #expect(
                try gateway.deployment.request(
                    "/v1/verify", method: "POST", body: SignedTransactions.body([monthlyJWS])
                ).status == 200)
            #expect(try gateway.download(SampleContent.issueId, token: try #require(tokens[read])).status == 200)
            // The issue's file goes missing on the server: the second customer's downloads fail on our side.
            let file = gateway.deployment.folder.appendingPathComponent("content/\(SampleContent.issuePath)")
            try FileManager.default.removeItem(at: file)
            for _ in 0..<2 {
                let failing = try gateway.download(SampleContent.issueId, token: try #require(tokens[failed]))
                #expect(failing.status == 500, "\(failing.text)")
            }
            // Put back, so that support's lookup (which loads the catalog) runs.
            try Data(SampleContent.issueBytes).write(to: file)

            for jws in [readJWS, failedJWS, monthlyJWS] {
                #expect(try Notifications.post("CONSUMPTION_REQUEST", transaction: jws, to: gateway).status == 200)
            }
            let answers = try Self.answers(gateway, count: 3)
            #expect(answers[read] as NSDictionary? == Self.answer("DELIVERED", consumed: 100_000, "DECLINE"))
            #expect(
                answers[failed] as NSDictionary? == Self.answer("UNDELIVERED_SERVER_OUTAGE", consumed: 0, "GRANT_FULL"))
            #expect(
                answers[monthly] as NSDictionary? == Self.answer("DELIVERED", consumed: nil, "GRANT_PRORATED"),
                "Apple's stand-in refuses a percentage for a subscription")
            let story = try SupportLookup.lookUp(gateway, ["--transaction-id", failed])
            #expect(
                story.output.contains(
                    "\(SampleContent.issueId): not delivered: The server failed to answer this request., request"),
                "\(story.output)")
        }
    }
}
