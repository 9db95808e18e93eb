import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// `/v1/verify` through real nginx against the App Store stand-in.
    @Suite struct Verify {
        @Test func recordsEveryTransactionAndAnswersEntitlements() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let receipt = try gateway.receipt(transactions: [
                Receipt.transaction(SampleContent.issueId, "100001"),
                Receipt.transaction(SampleContent.monthlyId, "100002", lineItem: "900002", expires: "+20d"),
                Receipt.transaction(SampleContent.coinsId, "100003"),
                Receipt.transaction("com.example.not-in-catalog", "100004"),
            ])
            let answer = try gateway.verify(receipt)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["status"] as? Int == 0)
            #expect(answer.json["environment"] as? String == "Production")
            #expect(answer.json["bundle_id"] as? String == SampleContent.bundleId)
            #expect(
                Set(answer.transactions.compactMap { $0["transaction_id"] as? String }) == [
                    "100001", "100002", "100003", "100004",
                ])
            #expect(answer.entitlementProducts == [SampleContent.issueId, SampleContent.monthlyId])
            let issue = try #require(answer.transactions.first { $0["transaction_id"] as? String == "100001" })
            #expect(issue["expires_date"] is NSNull)
            #expect(issue["cancellation_date"] is NSNull)
            #expect((issue["purchase_date"] as? String)?.hasSuffix("Z") == true)
            #expect(issue["quantity"] as? Int == 1)
            let entitlements = answer.json["entitlements"] as? [[String: Any]] ?? []
            // Tokens for products with content only (the issue, not the subscription).
            #expect(entitlements.first?["download_token"] is String)
            #expect(entitlements.last?["download_token"] == nil)
            #expect((entitlements.last?["expires_date"] as? String)?.hasSuffix("Z") == true)
            // Every transaction, the consumable and the unknown product included, is in the ledger.
            #expect(try gateway.ledgerCounts() == .init(purchases: 4, transactions: 4))

            let again = try gateway.verify(receipt)
            #expect(again.status == 200)
            #expect(try gateway.ledgerCounts() == .init(purchases: 4, transactions: 4))
        }

        @Test func sandboxReceiptsFallBackOn21007AndCarrySandbox() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let receipt = try gateway.receipt(
                transactions: [Receipt.transaction(SampleContent.issueId, "200001")], environment: "Sandbox")
            let answer = try gateway.verify(receipt)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["environment"] as? String == "Sandbox")
            #expect(try gateway.appStore.calls(receipt) == ["Production": 1, "Sandbox": 1])
        }

        @Test func sandboxIsRefusedWhenNotAccepted() throws {
            let gateway = try VerifyDeployment(apple: ["accept_sandbox": "false"])
            defer { gateway.stop() }
            let receipt = try gateway.receipt(
                transactions: [Receipt.transaction(SampleContent.issueId, "200002")], environment: "Sandbox")
            let answer = try gateway.verify(receipt)
            #expect(answer.status == 422)
            #expect(answer.errorCode == "sandbox_not_accepted")
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
        }

        @Test func a21008FromSandboxGoesBackToProduction() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            // Production first claims the receipt is a sandbox one; the sandbox host says 21008.
            let receipt = try gateway.receipt(
                transactions: [Receipt.transaction(SampleContent.issueId, "200003")],
                extra: ["steps": [["status": 21007], [String: Any]()]]
            )
            let answer = try gateway.verify(receipt)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["environment"] as? String == "Production")
            #expect(try gateway.appStore.calls(receipt) == ["Production": 2, "Sandbox": 1])
        }

        @Test func bundleMismatchIsRefusedAndNothingRecorded() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let receipt = try gateway.receipt(
                transactions: [Receipt.transaction(SampleContent.issueId, "300001")],
                extra: ["bundle_id": "com.other.app"]
            )
            let answer = try gateway.verify(receipt)
            #expect(answer.status == 422)
            #expect(answer.errorCode == "bundle_mismatch")
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
        }

        @Test func refundsAndExpiredSubscriptionsAreRecordedButNotEntitled() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let refunded = try gateway.receipt(transactions: [
                Receipt.transaction(SampleContent.issueId, "400001", cancelled: "-1h"),
                Receipt.transaction(SampleContent.monthlyId, "400002", lineItem: "940002", expires: "-1d"),
            ])
            let answer = try gateway.verify(refunded)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.entitlementProducts.isEmpty)
            let issue = try #require(answer.transactions.first { $0["transaction_id"] as? String == "400001" })
            #expect(issue["cancellation_date"] is String)
            #expect(try gateway.ledgerCounts() == .init(purchases: 2, transactions: 2))

            // A renewal: the latest period's expiry is the entitlement's.
            let renewed = try gateway.receipt(transactions: [
                Receipt.transaction(
                    SampleContent.monthlyId, "400003", original: "400003", lineItem: "940003", expires: "-20d"),
                Receipt.transaction(
                    SampleContent.monthlyId, "400004", original: "400003", lineItem: "940004", expires: "+10d"),
            ])
            let active = try gateway.verify(renewed)
            #expect(active.entitlementProducts == [SampleContent.monthlyId])
            let entitlement = try #require((active.json["entitlements"] as? [[String: Any]])?.first)
            #expect(entitlement["original_transaction_id"] as? String == "400003")
            let expires = try #require(entitlement["expires_date"] as? String)
            #expect(try Date(expires, strategy: .iso8601) > Date().addingTimeInterval(9 * 86_400))
        }

        @Test func typeDriftAndTheIOS6ShapeAreReadAlike() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let drifted = try gateway.receipt(
                transactions: [
                    Receipt.transaction(SampleContent.issueId, "500001"),
                    Receipt.transaction(SampleContent.monthlyId, "500002", lineItem: "950002", expires: "+5d"),
                ],
                extra: ["numbers": true, "latest_as_object": true]
            )
            let answer = try gateway.verify(drifted)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.entitlementProducts == [SampleContent.issueId, SampleContent.monthlyId])
            #expect(Set(answer.transactions.compactMap { $0["transaction_id"] as? String }) == ["500001", "500002"])

            let ios6 = try gateway.receipt(
                transactions: [
                    Receipt.transaction(SampleContent.monthlyId, "500003", lineItem: "950003", expires: "-2d")
                ],
                extra: ["shape": "ios6"]
            )
            let expired = try gateway.verify(ios6)
            #expect(expired.status == 200, "\(expired.text)")
            #expect(expired.json["status"] as? Int == 21006)
            #expect(expired.transactions.compactMap { $0["transaction_id"] as? String } == ["500003"])
            #expect(expired.entitlementProducts.isEmpty)
        }

        @Test func malformedRequestsAreRefusedWithoutCallingApple() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let cases: [[UInt8]] = [
                Array("{not json".utf8), Array("{}".utf8), Array("{\"receipt-data\": 12}".utf8),
                Array("{\"receipt-data\": \"not*base64!\"}".utf8), Array("[]".utf8), [],
            ]
            for body in cases {
                let answer = try gateway.deployment.request("/v1/verify", method: "POST", body: body)
                #expect(answer.status == 400, "\(String(decoding: body, as: UTF8.self))")
                #expect(answer.errorCode == "bad_request")
            }
            #expect(try gateway.deployment.request("/v1/verify").status == 405)
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
        }
    }
}
