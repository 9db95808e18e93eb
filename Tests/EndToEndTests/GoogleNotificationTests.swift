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
            try gateway.appStore.addGoogle([
                GooglePlay.purchase("tok-e2e-later", SampleContent.issueId, ["order_id": order])
            ])
            let bought = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: GooglePlay.body("tok-e2e-later"))
            let download = try #require(bought.downloadToken(for: SampleContent.issueId), "\(bought.text)")
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
            let other = try gateway.pushGoogle(
                ["packageName": "com.example.other", "testNotification": ["version": "1.0"]], messageId: "m-other")
            #expect(other.status == 422)
            #expect(other.errorCode == "bundle_mismatch")
            let nothing = try gateway.pushGoogle(["somethingElse": [String: Any]()], messageId: "m-nothing")
            #expect(nothing.status == 400)
            #expect(nothing.text.contains("of no kind Google documents"), "\(nothing.text)")
        }
    }
}
