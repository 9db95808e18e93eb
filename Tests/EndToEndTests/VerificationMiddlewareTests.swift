import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// A content route mounted like real ones: the App Store verifier behind the verification middleware.
    @Suite struct AppStoreMiddleware {
        @Test func aReceiptInTheBodyYieldsTheEntitlementOrTheRightError() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let receipt = try gateway.receipt(transactions: [
                Receipt.transaction(SampleContent.issueId, "110001", original: "110000"),
                Receipt.transaction(SampleContent.monthlyId, "110002", lineItem: "910002", expires: "-1d"),
            ])
            let route = "/v1/entitlement-echo/"
            let entitled = try gateway.deployment.request(
                route + SampleContent.issueId, method: "POST", body: Receipt.body(receipt))
            #expect(entitled.status == 200, "\(entitled.text)")
            #expect(entitled.json["product"] as? String == SampleContent.issueId)
            #expect(entitled.json["original_transaction_id"] as? String == "110000")
            #expect(entitled.json["environment"] as? String == "Production")

            let expired = try gateway.deployment.request(
                route + SampleContent.monthlyId, method: "POST", body: Receipt.body(receipt))
            #expect(expired.status == 403)
            #expect(expired.errorCode == "not_entitled")

            let anonymous = try gateway.deployment.request(route + SampleContent.issueId)
            #expect(anonymous.status == 401)
            #expect(anonymous.errorCode == "receipt_required")

            let token = try gateway.deployment.request(
                route + SampleContent.issueId, headers: [("Authorization", "Bearer abc")])
            #expect(token.status == 401)
            #expect(token.errorCode == "token_invalid")

            let badBase64 = try gateway.deployment.request(
                route + SampleContent.issueId, method: "POST", body: Array("{\"receipt-data\":\"%%%\"}".utf8))
            #expect(badBase64.status == 400)

            let rejected = try gateway.receipt(transactions: [], extra: ["steps": [["status": 21003]]])
            let invalid = try gateway.deployment.request(
                route + SampleContent.issueId, method: "POST", body: Receipt.body(rejected))
            #expect(invalid.status == 422)
            #expect(invalid.appleStatus == 21003)
            // The download was verified once and recorded like any verification.
            #expect(try gateway.appStore.calls(receipt)["Production"] == 1)
            #expect(try gateway.ledgerCounts().purchases == 2)
        }

        @Test func noReceiptSecretOrTokenReachesAnyLog() throws {
            let secret = "shared-secret-5f1c9a"
            let gateway = try VerifyDeployment(
                apple: ["max_attempts": "2"], simSecret: secret,
                environment: ["STOREGATE_APPLE_SHARED_SECRET": secret])
            defer { gateway.stop() }
            let good = try gateway.receipt(transactions: [Receipt.transaction(SampleContent.issueId, "120001")])
            let failing = try gateway.receipt(transactions: [], extra: ["steps": [["http_status": 503]]])
            let garbage = try gateway.receipt(transactions: [], extra: ["steps": [["body": "{\"status\": \"oops\""]]])
            for name in [good, failing, garbage, good] { _ = try gateway.verify(name) }
            _ = try gateway.deployment.request(
                "/v1/entitlement-echo/\(SampleContent.issueId)", headers: [("Authorization", "Bearer token-ab12cd34")])
            _ = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: Array("{\"receipt-data\":\"bad*\(good)\"}".utf8))
            let logs = gateway.logs
            // The verification's facts are on the request line, the receipt only as its digest.
            #expect(
                logs.split(separator: "\n").contains {
                    $0.contains("msg=request") && $0.contains("route=/v1/verify") && $0.contains(" receipt=")
                        && $0.contains(" cached=") && $0.contains(" recorded=")
                }, "\(logs)")
            #expect(logs.contains("the App Store gave no verdict"))
            for needle in [
                secret, Receipt.data(good), Receipt.data(failing), Receipt.data(garbage), "token-ab12cd34", good,
            ] {
                #expect(!logs.contains(needle), "\(needle) was logged")
            }
        }
    }
}
