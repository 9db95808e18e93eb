import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// Google Play's real-time developer notifications, pushed as Cloud Pub/Sub pushes them (OIDC token signed by
    /// the stand-in under the keys it publishes) through real nginx to `/v1/notifications/google`.
    @Suite struct GoogleNotifications {
        static let package = SampleContent.googlePackage
        static let productsV2 = "purchases.productsv2.getproductpurchasev2"

        static func voided(_ token: String, order: String, productType: Int = 2) -> [String: Any] {
            [
                "voidedPurchaseNotification": [
                    "purchaseToken": token, "orderId": order, "productType": productType, "refundType": 1,
                ] as [String: Any]
            ]
        }

        static func original(_ order: String) -> String { "google-play:\(package):\(order)" }

        /// `token`, a purchase of the issue under `order`, added to Google's side and verified: its download token.
        static func bought(_ token: String, order: String, on gateway: VerifyDeployment) throws -> String {
            try gateway.appStore.addGoogle([GooglePlay.purchase(token, SampleContent.issueId, ["order_id": order])])
            let bought = try gateway.deployment.request("/v1/verify", method: "POST", body: GooglePlay.body(token))
            return try #require(bought.downloadToken(for: SampleContent.issueId), "\(bought.text)")
        }

        /// A refund reaches the gateway only as a push: Google's API, read on the push's word, says the purchase
        /// is cancelled, and the download token issued before stops working. The same message again changes
        /// nothing; a push whose word Google's API does not bear out changes nothing either.
        @Test func aVoidedOneTimePurchaseArrivingByPushBlocksItsDownloadToken() throws {
            let gateway = try VerifyDeployment(google: [:])
            defer { gateway.stop() }
            let order = "GPA.3300-0000-0000-00020"
            try gateway.appStore.addGoogle([
                GooglePlay.purchase("tok-e2e-void", SampleContent.issueId, ["order_id": order]),
                GooglePlay.purchase("tok-e2e-kept", SampleContent.monthlyId, ["order_id": "GPA.3300-0000-0000-00021"]),
            ])
            let bought = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: GooglePlay.body("tok-e2e-void"))
            #expect(bought.status == 200, "\(bought.text)")
            let download = try #require(bought.downloadToken(for: SampleContent.issueId))
            #expect(try gateway.download(SampleContent.issueId, token: download).status == 200)

            // Google's word, unproven: the API still says purchased, so nothing is cancelled.
            let unproven = try gateway.pushGoogle(
                Self.voided("tok-e2e-void", order: order), messageId: "m-void-early")
            #expect(unproven.status == 200, "\(unproven.text)")
            #expect(try gateway.download(SampleContent.issueId, token: download).status == 200)

            try gateway.appStore.addGoogle([
                GooglePlay.purchase("tok-e2e-void", SampleContent.issueId, ["order_id": order, "state": "CANCELLED"])
            ])
            let pushed = try gateway.pushGoogle(Self.voided("tok-e2e-void", order: order), messageId: "m-void-1")
            #expect(pushed.status == 200, "\(pushed.text)")
            #expect(pushed.json["status"] as? String == "recorded")
            let refused = try gateway.download(SampleContent.issueId, token: download)
            #expect(refused.status == 403, "\(refused.text)")
            #expect(refused.errorCode == "not_entitled")
            let ledger = try SQLiteLedger(path: gateway.ledgerPath)
            let purchases = try ledger.purchases(environment: "Production", originalTransactionId: Self.original(order))
            #expect(purchases.map { $0.cancellationDate != nil } == [true])
            let timeline = try ledger.notifications(
                environment: "Production", originalTransactionId: Self.original(order))
            #expect(timeline.map(\.type).contains("VOIDED_PURCHASE"), "\(timeline)")

            // Pub/Sub delivers at least once: the same message again changes nothing.
            let counts = try gateway.ledgerCounts()
            let again = try gateway.pushGoogle(Self.voided("tok-e2e-void", order: order), messageId: "m-void-1")
            #expect(again.status == 200, "\(again.text)")
            #expect(again.json["status"] as? String == "duplicate")
            #expect(try gateway.ledgerCounts() == counts)
            #expect(
                try ledger.notifications(environment: "Production", originalTransactionId: Self.original(order)).count
                    == timeline.count)
            #expect(!gateway.logs.contains("tok-e2e-void"), "a purchase token is in no log line")
        }

        /// A message id seen first with something else (a genuine push token replayed with a made-up id and a test
        /// notification) does not keep a later refund under that id out: what Google's API says is recorded even
        /// when the message is a duplicate. Found by an attacker of the push route.
        @Test func aMessageIdClaimedFirstDoesNotKeepARefundOut() throws {
            let gateway = try VerifyDeployment(google: [:])
            defer { gateway.stop() }
            let order = "GPA.3300-0000-0000-00024"
            let download = try Self.bought("tok-e2e-claimed", order: order, on: gateway)
            let claim = try gateway.pushGoogle(["testNotification": ["version": "1.0"]], messageId: "7000000011")
            #expect(claim.json["status"] as? String == "recorded", "\(claim.text)")
            try gateway.appStore.addGoogle([
                GooglePlay.purchase(
                    "tok-e2e-claimed", SampleContent.issueId, ["order_id": order, "state": "CANCELLED"])
            ])
            let refund = try gateway.pushGoogle(Self.voided("tok-e2e-claimed", order: order), messageId: "7000000011")
            #expect(refund.json["status"] as? String == "duplicate", "\(refund.text)")
            #expect(try gateway.download(SampleContent.issueId, token: download).status == 403)
        }

        /// A push without Pub/Sub's genuine token for the configured subscription is refused before anything is
        /// read or recorded: another key under Google's key id, an expired token, another issuer, an unverified
        /// email, HS256 keyed with the public modulus, no token, another audience, a genuine token of another
        /// service account. A key id Google did not publish a moment ago is a 503 (Google may have just rotated its
        /// keys; Pub/Sub delivers the push again after the minute in which they are not fetched again).
        @Test func forgedPushesAreRefusedWithNothingRecorded() throws {
            let gateway = try VerifyDeployment(google: [:])
            defer { gateway.stop() }
            let order = "GPA.3300-0000-0000-00022"
            try gateway.appStore.addGoogle([
                GooglePlay.purchase("tok-e2e-forged", SampleContent.issueId, ["order_id": order, "state": "CANCELLED"])
            ])
            let notification = Self.voided("tok-e2e-forged", order: order)
            var pushes = try ["other-key", "expired", "issuer", "unverified-email", "symmetric", "missing"].map {
                (forgery: String) in
                (forgery, try gateway.pushGoogle(notification, messageId: "m-\(forgery)", forgery: forgery))
            }
            pushes.append(
                (
                    "audience",
                    try gateway.pushGoogle(
                        notification, messageId: "m-audience", audience: "https://elsewhere.test/push")
                ))
            pushes.append(
                (
                    "email",
                    try gateway.pushGoogle(
                        notification, messageId: "m-email", email: "attacker@other-project.iam.gserviceaccount.com")
                ))
            for (forgery, answer) in pushes {
                #expect(answer.status == 403, "\(forgery): \(answer.text)")
                #expect(answer.errorCode == "push_refused", "\(forgery)")
            }
            let unknownKey = try gateway.pushGoogle(notification, messageId: "m-kid", forgery: "unknown-kid")
            #expect(unknownKey.status == 503, "\(unknownKey.text)")
            #expect(try gateway.appStore.googleCalls()[Self.productsV2] == nil, "Google was not asked on a forged word")
            let ledger = try SQLiteLedger(path: gateway.ledgerPath)
            #expect(try ledger.notificationsRecordedUntil() == nil)
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
            #expect(gateway.logs.contains("a Google Play push was refused"))
            #expect(!gateway.logs.contains("Bearer "), "no token is in a log line")

            // The genuine push of the same notification is taken.
            let genuine = try gateway.pushGoogle(notification, messageId: "m-genuine")
            #expect(genuine.status == 200, "\(genuine.text)")
            #expect(try gateway.appStore.googleCalls()["push-keys"] == 1, "Google's keys were fetched once")
        }

        /// Google's API down while a push arrives: the push is not acknowledged (503), so Pub/Sub delivers it
        /// again, and the redelivery, with Google back, is recorded.
        @Test func googleDownDuringAPushIsNot2xxSoItIsDeliveredAgain() throws {
            let gateway = try VerifyDeployment(google: ["max_attempts": "2"])
            defer { gateway.stop() }
            let order = "GPA.3300-0000-0000-00023"
            let download = try Self.bought("tok-e2e-later", order: order, on: gateway)
            try gateway.appStore.addGoogle([
                GooglePlay.purchase("tok-e2e-later", SampleContent.issueId, ["order_id": order, "state": "CANCELLED"])
            ])
            try gateway.appStore.playGoogle(
                Array(repeating: ["endpoint": Self.productsV2, "http_status": 503], count: 2))
            let down = try gateway.pushGoogle(Self.voided("tok-e2e-later", order: order), messageId: "m-later")
            #expect(down.status == 503, "\(down.text)")
            #expect(try gateway.download(SampleContent.issueId, token: download).status == 200)
            let ledger = try SQLiteLedger(path: gateway.ledgerPath)
            #expect(try ledger.notificationsRecordedUntil() == nil)

            let redelivered = try gateway.pushGoogle(Self.voided("tok-e2e-later", order: order), messageId: "m-later")
            #expect(redelivered.status == 200, "\(redelivered.text)")
            #expect(redelivered.json["status"] as? String == "recorded")
            #expect(try gateway.download(SampleContent.issueId, token: download).status == 403)
        }

        /// Play Console's test notification is taken and recorded; a push for another app, or one whose data is
        /// not a developer notification, is refused in words.
        @Test func aTestNotificationIsTakenAndBadPushesAreRefusedInWords() throws {
            let gateway = try VerifyDeployment(google: [:])
            defer { gateway.stop() }
            let test = try gateway.pushGoogle(["testNotification": ["version": "1.0"]], messageId: "m-test")
            #expect(test.status == 200, "\(test.text)")
            #expect(test.json["status"] as? String == "recorded")
            // A refund review of an order never sold here is recorded, its pending refund token in no log line.
            let review = try gateway.pushGoogle(
                [
                    "pendingRefundReviewNotification": [
                        "version": "1.0", "orderId": "GPA.3300-0000-0000-00040", "refundReason": 7,
                        "pendingRefundToken": "pending-refund-secret",
                    ] as [String: Any]
                ], messageId: "m-review")
            #expect(review.json["status"] as? String == "recorded", "\(review.text)")
            #expect(!gateway.logs.contains("pending-refund-secret"))
            let other = try gateway.pushGoogle(
                ["packageName": "com.example.other", "testNotification": ["version": "1.0"]], messageId: "m-other")
            #expect(other.status == 422)
            #expect(other.errorCode == "bundle_mismatch")
            let nothing = try gateway.pushGoogle(["somethingElse": [String: Any]()], messageId: "m-nothing")
            #expect(nothing.status == 400)
            #expect(nothing.text.contains("of no kind Google documents"), "\(nothing.text)")
        }

        /// A refund Google never pushed (the gateway was down, the subscription misconfigured) is found in Google's
        /// voided purchases by `storegate notifications backfill`, subscriptions included (`type=1`), across pages,
        /// and ends the purchase at the time Google voided it; a second run changes nothing.
        @Test func aRefundMissedWhileTheGatewayWasDownIsFoundByTheBackfill() throws {
            let gateway = try VerifyDeployment(google: [:])
            defer { gateway.stop() }
            let (issue, monthly) = ("GPA.3300-0000-0000-00030", "GPA.3300-0000-0000-00031..0")
            try gateway.appStore.addGoogle([
                GooglePlay.purchase("tok-e2e-missed", SampleContent.issueId, ["order_id": issue]),
                GooglePlay.purchase(
                    "tok-e2e-missed-sub", SampleContent.monthlyId,
                    ["subscription": true, "order_id": monthly, "expires_in_s": 86_400 * 20]),
            ])
            let bought = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: GooglePlay.body("tok-e2e-missed"))
            let download = try #require(bought.downloadToken(for: SampleContent.issueId), "\(bought.text)")
            let subscribed = try gateway.deployment.request(
                "/v1/verify", method: "POST",
                body: GooglePlay.body("tok-e2e-missed-sub", product: SampleContent.monthlyId))
            #expect(subscribed.status == 200, "\(subscribed.text)")
            // Google voids both (ten and five minutes from now, by its clock); no push reaches the gateway. Other
            // voided purchases, never recorded here, fill two pages of Google's list.
            var voided = [
                GooglePlay.purchase("tok-e2e-missed", SampleContent.issueId, ["order_id": issue, "voided_at_s": -600]),
                GooglePlay.purchase(
                    "tok-e2e-missed-sub", SampleContent.monthlyId,
                    ["subscription": true, "order_id": monthly, "expires_in_s": 86_400 * 20, "voided_at_s": -300]),
            ]
            voided += (0..<1100).map { index in
                GooglePlay.purchase("tok-e2e-elsewhere-\(index)", SampleContent.issueId, ["voided_at_s": -900])
            }
            try gateway.appStore.addGoogle(voided)
            let run = try NotificationBackfill.backfill(gateway, ["--since", "2d"])
            #expect(run.status == 0, "\(run.output)\(run.errors)")
            #expect(run.output.contains("1102 voided purchases listed: 2 ended"), "\(run.output)")
            #expect(try gateway.appStore.googleCalls()["purchases.voidedpurchases.list"] == 2, "two pages")
            let refused = try gateway.download(SampleContent.issueId, token: download)
            #expect(refused.status == 403, "\(refused.text)")
            let ledger = try SQLiteLedger(path: gateway.ledgerPath)
            let ended = try ledger.purchases(environment: "Production", originalTransactionId: Self.original(issue))
            let endedAt = try #require(ended.first?.cancellationDate)
            #expect(abs(endedAt.timeIntervalSinceNow + 600) < 120, "ended when Google voided it: \(endedAt)")
            let subscription = try ledger.purchases(
                environment: "Production", originalTransactionId: "google-play:\(Self.package):GPA.3300-0000-0000-00031"
            )
            #expect(subscription.allSatisfy { $0.cancellationDate != nil } && !subscription.isEmpty, "\(subscription)")

            let again = try NotificationBackfill.backfill(gateway, ["--since", "2d"])
            #expect(again.output.contains("1102 voided purchases listed: 0 ended"), "\(again.output)")
            // Google keeps 30 days of them: a longer backfill asks for 30 days, not more.
            let longer = try NotificationBackfill.backfill(gateway, ["--since", "90d"])
            #expect(longer.status == 0, "\(longer.output)\(longer.errors)")
        }

        /// With `voided_purchases_poll_s`, a serving gateway finds a refund no push told it of by itself.
        @Test func aServingGatewayPollsGooglesVoidedPurchases() throws {
            let gateway = try VerifyDeployment(google: ["voided_purchases_poll_s": "1"])
            defer { gateway.stop() }
            let order = "GPA.3300-0000-0000-00032"
            let download = try Self.bought("tok-e2e-polled", order: order, on: gateway)
            try gateway.appStore.addGoogle([
                GooglePlay.purchase("tok-e2e-polled", SampleContent.issueId, ["order_id": order, "voided_at_s": -60])
            ])
            #expect(
                ManagedProcess.poll(for: .seconds(20)) {
                    (try? gateway.download(SampleContent.issueId, token: download).status) == 403
                })
            #expect(gateway.logs.contains("voided purchases polled"), "the poll says what it ended")
        }
    }
}
