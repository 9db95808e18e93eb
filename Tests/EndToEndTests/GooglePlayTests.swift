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
                Self.purchase("tok-e2e-coins", SampleContent.coinsId, ["order_id": "GPA.3300-0000-0000-00003"]),
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
    }
}
