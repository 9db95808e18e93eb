import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// Google Play purchases through real nginx, the real gateway and Google's stand-in (a real process that checks
    /// the service account's login and answers the Play Developer API from fixtures).
    @Suite struct GooglePlay {
        static func body(_ token: String, product: String? = nil) -> [UInt8] {
            var fields: [String: String] = ["store": "google-play", "purchase-token": token]
            if let product { fields["product-id"] = product }
            return Array((try? JSONSerialization.data(withJSONObject: fields)) ?? Data())
        }

        static func purchase(_ token: String, _ product: String, _ extra: [String: Any] = [:]) -> [String: Any] {
            ["token": token, "package_name": SampleContent.googlePackage, "product_id": product].merging(extra) {
                _, chosen in chosen
            }
        }

        @Test func aOneTimePurchaseIsVerifiedRecordedAndDownloaded() throws {
            let gateway = try VerifyDeployment(google: [:])
            defer { gateway.stop() }
            try gateway.appStore.addGoogle([
                Self.purchase("tok-e2e-issue", SampleContent.issueId, ["order_id": "GPA.3300-0000-0000-00001"]),
                Self.purchase("tok-e2e-coins", SampleContent.googleCoinsId, ["order_id": "GPA.3300-0000-0000-00003"]),
            ])
            let answer = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body("tok-e2e-issue"))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["environment"] as? String == "Production")
            #expect(answer.json["bundle_id"] as? String == SampleContent.googlePackage)
            #expect(answer.entitlementProducts == [SampleContent.issueId])
            let entitlement = try #require((answer.json["entitlements"] as? [[String: Any]])?.first)
            #expect(
                entitlement["original_transaction_id"] as? String
                    == "google-play:\(SampleContent.googlePackage):GPA.3300-0000-0000-00001")
            #expect(entitlement["store"] as? String == "google-play")
            #expect(try gateway.ledgerCounts() == .init(purchases: 1, transactions: 1))
            // The token is a credential: it is in no log line.
            #expect(!(try gateway.logs(through: answer)).contains("tok-e2e-issue"))

            let token = try #require(entitlement["download_token"] as? String)
            let download = try gateway.download(SampleContent.issueId, token: token)
            #expect(download.status == 200)
            #expect(download.body == SampleContent.issueBytes)
            // The purchase token works as a content request's credential too.
            let direct = try gateway.deployment.request(
                "/v1/download/\(SampleContent.issueId)", method: "POST", body: Self.body("tok-e2e-issue"))
            #expect(direct.status == 200)
            #expect(direct.body == SampleContent.issueBytes)
            let notBought = try gateway.deployment.request(
                "/v1/download/\(SampleContent.issueId)", method: "POST", body: Self.body("tok-e2e-coins"))
            #expect(notBought.status == 403)
            #expect(notBought.errorCode == "not_entitled")
            // One login served every call.
            #expect(try gateway.appStore.googleCalls()["token"] == 1)
        }

        @Test func aPendingPurchaseIsRefusedAndNothingIsRecorded() throws {
            let gateway = try VerifyDeployment(google: [:])
            defer { gateway.stop() }
            try gateway.appStore.addGoogle([
                Self.purchase("tok-e2e-pending", SampleContent.issueId, ["state": "PENDING"])
            ])
            let answer = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: Self.body("tok-e2e-pending"))
            #expect(answer.status == 402)
            #expect(answer.errorCode == "purchase_pending")
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
        }

        @Test func aTestPurchaseIsRefusedWhereTheSandboxIsNot() throws {
            let gateway = try VerifyDeployment(google: ["accept_sandbox": "false"])
            defer { gateway.stop() }
            try gateway.appStore.addGoogle([Self.purchase("tok-e2e-tester", SampleContent.issueId, ["test": true])])
            let answer = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body("tok-e2e-tester"))
            #expect(answer.status == 422)
            #expect(answer.errorCode == "sandbox_not_accepted")
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
        }

        @Test func anUnknownTokenAndAnotherAppsPurchaseAreRefusedInWords() throws {
            let gateway = try VerifyDeployment(google: [:])
            defer { gateway.stop() }
            let unknown = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: Self.body("tok-e2e-nobody"))
            #expect(unknown.status == 422)
            #expect(unknown.errorCode == "purchase_not_found")
            let other = try gateway.deployment.request(
                "/v1/verify", method: "POST",
                body: Array(
                    #"{"store": "google-play", "purchase-token": "tok", "package-name": "com.example.other"}"#.utf8))
            #expect(other.status == 422)
            #expect(other.errorCode == "bundle_mismatch")
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
        }

        @Test func aSubscriptionEntitlesUntilItsExpiry() throws {
            let gateway = try VerifyDeployment(google: [:])
            defer { gateway.stop() }
            try gateway.appStore.addGoogle([
                Self.purchase(
                    "tok-e2e-monthly", SampleContent.monthlyId,
                    ["subscription": true, "order_id": "GPA.3300-0000-0000-00002..1", "expires_in_s": 86_400])
            ])
            let answer = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: Self.body("tok-e2e-monthly", product: SampleContent.monthlyId))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.entitlementProducts == [SampleContent.monthlyId])
            #expect(try gateway.appStore.googleCalls()["purchases.subscriptionsv2.get"] == 1)
        }

        @Test func googleDownIsA503WithRetryAfterAndAStatusLine() throws {
            let gateway = try VerifyDeployment(google: ["max_attempts": "2"])
            defer { gateway.stop() }
            try gateway.appStore.addGoogle([Self.purchase("tok-e2e-down", SampleContent.issueId)])
            try gateway.appStore.playGoogle(
                Array(
                    repeating: ["endpoint": "purchases.productsv2.getproductpurchasev2", "http_status": 503], count: 2))
            let answer = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body("tok-e2e-down"))
            #expect(answer.status == 503)
            #expect(answer.errorCode == "upstream_unavailable")
            #expect(Int(answer.header("Retry-After") ?? "") ?? 0 > 0)
            let status = try gateway.deployment.request("/v1/status")
            #expect(
                ((status.json["upstream"] as? [String: Any])?["last_error"] as? String)?.contains("Google Play") == true
            )
            // Google answers again: the same purchase is verified.
            let again = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body("tok-e2e-down"))
            #expect(again.status == 200, "\(again.text)")
        }

        /// An upgrade (or a downgrade, a resubscription) is a new subscription whose `linkedPurchaseToken` names the
        /// one it replaced: verifying the new one ends the old one in the ledger.
        @Test func aSubscriptionUpgradedThroughItsLinkedTokenEndsTheOldOne() throws {
            let gateway = try VerifyDeployment(google: [:])
            defer { gateway.stop() }
            try gateway.appStore.addGoogle([
                Self.purchase(
                    "tok-e2e-basic", SampleContent.monthlyId,
                    ["subscription": true, "order_id": "GPA.3300-0000-0000-00010..0", "expires_in_s": 86_400]),
                Self.purchase(
                    "tok-e2e-premium", SampleContent.monthlyId,
                    [
                        "subscription": true, "order_id": "GPA.3300-0000-0000-00011..0", "expires_in_s": 86_400 * 30,
                        "linked_purchase_token": "tok-e2e-basic",
                    ]),
            ])
            let basic = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: Self.body("tok-e2e-basic", product: SampleContent.monthlyId))
            #expect(basic.entitlementProducts == [SampleContent.monthlyId], "\(basic.text)")
            let premium = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: Self.body("tok-e2e-premium", product: SampleContent.monthlyId))
            #expect(premium.entitlementProducts == [SampleContent.monthlyId], "\(premium.text)")
            let entitlement = try #require((premium.json["entitlements"] as? [[String: Any]])?.first)
            let package = SampleContent.googlePackage
            #expect(
                entitlement["original_transaction_id"] as? String == "google-play:\(package):GPA.3300-0000-0000-00011")
            let ledger = try SQLiteLedger(path: gateway.ledgerPath)
            let old = try ledger.purchases(
                environment: "Production", originalTransactionId: "google-play:\(package):GPA.3300-0000-0000-00010")
            #expect(old.map { $0.cancellationDate != nil } == [true], "the replaced subscription stops granting")
            let new = try ledger.purchases(
                environment: "Production", originalTransactionId: "google-play:\(package):GPA.3300-0000-0000-00011")
            #expect(new.map { $0.cancellationDate == nil } == [true])
        }

        /// The account id the app gave Play Billing (`obfuscatedAccountId`) binds the purchase to that app account,
        /// as Apple's appAccountToken does, under the same restore policy.
        @Test func theAccountIdGivenToPlayBillingBindsThePurchase() throws {
            let gateway = try VerifyDeployment(
                extra: """
                    accounts:
                      asserted_by: [signed]
                      secret: \(Accounts.secret)
                      restore_policy: keep

                    """,
                google: [:])
            defer { gateway.stop() }
            try gateway.appStore.addGoogle([
                Self.purchase(
                    "tok-e2e-bound", SampleContent.issueId,
                    ["order_id": "GPA.3300-0000-0000-00012", "account_id": Accounts.alice])
            ])
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: Self.body("tok-e2e-bound"))
            #expect(verified.status == 200, "\(verified.text)")
            #expect(try Accounts.holdings(Accounts.alice, in: gateway) == [SampleContent.issueId])
            let other = try gateway.deployment.request(
                "/v1/restore-sync", method: "POST", headers: [Accounts.asserting(Accounts.bob)],
                body: Self.body("tok-e2e-bound"))
            #expect(other.errorCode == "held_by_another_account", "\(other.text)")
            #expect(try Accounts.holdings(Accounts.bob, in: gateway).isEmpty)
        }

        /// Google says a token is no longer valid (410): the purchase it was recorded under is over, and a download
        /// token issued for it before stops working, as a refund does.
        @Test func aTokenGoogleNoLongerKnowsEndsItsPurchase() throws {
            let gateway = try VerifyDeployment(google: ["cache_ttl_s": "0"])
            defer { gateway.stop() }
            let token = "tok-e2e-over"
            try gateway.appStore.addGoogle([
                Self.purchase(token, SampleContent.issueId, ["order_id": "GPA.3300-0000-0000-00009"])
            ])
            let bought = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(token))
            #expect(bought.status == 200, "\(bought.text)")
            let download = try #require(bought.downloadToken(for: SampleContent.issueId))
            #expect(try gateway.download(SampleContent.issueId, token: download).status == 200)

            try gateway.appStore.addGoogle([
                Self.purchase(token, SampleContent.issueId, ["order_id": "GPA.3300-0000-0000-00009", "gone": true])
            ])
            let over = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(token))
            #expect(over.status == 422)
            #expect(over.errorCode == "purchase_not_found")
            #expect(over.text.contains("no longer valid"), "\(over.text)")
            let refused = try gateway.download(SampleContent.issueId, token: download)
            #expect(refused.status == 403)
            #expect(refused.errorCode == "not_entitled")
            let ledger = try SQLiteLedger(path: gateway.ledgerPath)
            let purchases = try ledger.purchases(
                environment: "Production",
                originalTransactionId: "google-play:\(SampleContent.googlePackage):GPA.3300-0000-0000-00009")
            #expect(purchases.map { $0.cancellationDate != nil } == [true])
            #expect(!gateway.logs.contains(token), "a purchase token is in no log line")
        }

        /// Google refunds a purchase it has not heard acknowledged within three days: the acknowledgement is kept
        /// in the ledger with the purchase, so a gateway killed before it was sent leaves it to the next one.
        @Test func anAcknowledgementSurvivesAGatewayKilledBeforeItWasSent() throws {
            // Tokens shorter-lived than the gateway's renewal margin: every call logs in first. 5 s calls: a claim
            // outlives a login and a call (20 s), and then another gateway takes it over.
            let gateway = try VerifyDeployment(
                google: ["timeout_ms": "5000", "max_attempts": "1"], googleTokenLifetime: 120)
            defer { gateway.stop() }
            let token = "tok-e2e-ack"
            try gateway.appStore.addGoogle([
                Self.purchase(token, SampleContent.issueId, ["order_id": "GPA.3300-0000-0000-00007"]),
                Self.purchase("tok-e2e-coins", SampleContent.googleCoinsId, ["order_id": "GPA.3300-0000-0000-00008"]),
            ])
            // The verification's login is answered at once; the acknowledgement's hangs, and the gateway is killed.
            try gateway.appStore.playGoogle([
                ["endpoint": "token", "delay_ms": 0], ["endpoint": "token", "delay_ms": 30_000],
            ])
            let answer = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(token))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(ManagedProcess.poll(for: .seconds(10)) { (try? gateway.appStore.googleCalls()["token"]) == 2 })
            gateway.deployment.gateway.signal(SIGKILL)
            #expect(try gateway.appStore.googleCalls()["purchases.products.acknowledge"] == nil)
            #expect(try gateway.appStore.googlePurchase(token)["acknowledged"] as? Bool == false)

            try gateway.deployment.restartGateway()
            #expect(
                ManagedProcess.poll(for: .seconds(60)) {
                    (try? gateway.appStore.googlePurchase(token)["acknowledged"] as? Bool) == true
                })
            #expect(try gateway.appStore.googleCalls()["purchases.products.acknowledge"] == 1)
            let ledger = try SQLiteLedger(path: gateway.ledgerPath)
            let original = "google-play:\(SampleContent.googlePackage):GPA.3300-0000-0000-00007"
            // Done once Google's answer is recorded, which follows the call the stand-in saw.
            var followUps: [StoredFollowUp] = []
            _ = ManagedProcess.poll(for: .seconds(20)) {
                followUps = (try? ledger.followUps(environment: "Production", originalTransactionId: original)) ?? []
                return followUps.map(\.state) == [.done]
            }
            #expect(followUps.map(\.state) == [.done])
            #expect(followUps.map(\.followUp.action) == ["acknowledge"])
            // Support reads it on the purchase's timeline, in words, without the purchase token.
            let lookup = try SupportLookup.lookUp(gateway, ["--transaction-id", original])
            #expect(lookup.output.contains("google-play · Production · purchase \(original)"), "\(lookup.output)")
            #expect(lookup.output.contains("store follow-up"), "\(lookup.output)")
            #expect(lookup.output.contains("acknowledge: done, Google took it"), "\(lookup.output)")
            #expect(!lookup.output.contains(token))

            // A consumable with no content is acknowledged and consumed once recorded, so it can be bought again.
            let coins = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body("tok-e2e-coins"))
            #expect(coins.status == 200, "\(coins.text)")
            // Google sells the coins under another id (the catalog's store_ids): recorded under the catalog's.
            #expect(coins.transactions.map { $0["product_id"] as? String } == [SampleContent.coinsId])
            #expect(
                ManagedProcess.poll(for: .seconds(30)) {
                    (try? gateway.appStore.googlePurchase("tok-e2e-coins")["consumed"] as? Bool) == true
                })
            #expect(try gateway.appStore.googlePurchase("tok-e2e-coins")["acknowledged"] as? Bool == true)
            // Counted just after the ledger records Google's answer.
            let done = #"storegate_store_follow_ups_total{store="google-play",action="consume",outcome="done"} 1"#
            var metrics = ""
            #expect(
                ManagedProcess.poll(for: .seconds(10)) {
                    metrics = (try? gateway.deployment.request("/v1/metrics").text) ?? ""
                    return metrics.contains(done)
                }, "\(metrics)")
            #expect(!gateway.logs.contains(token), "a purchase token is in no log line")
        }
    }
}
