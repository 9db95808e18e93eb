import Foundation
import PurchaseLedger
import SignedTestData
import Testing

extension EndToEnd {
    /// StoreKit 2 signed transactions through nginx: verified by the gateway itself against the configured
    /// root (Apple's test chain here), then recorded and answered like receipts.
    @Suite struct SignedTransactions {
        static let testRoot = SignedVectors.folder.appendingPathComponent(
            "apple-app-store-server-library-swift/testCA.der")

        static func gateway(environments: String = "[Production, Sandbox]", roots: Bool = true) throws
            -> VerifyDeployment
        {
            var apple = VerifyDeployment.trustingTestChain
            apple["environments"] = environments
            if !roots { apple["root_certificates"] = nil }
            return try VerifyDeployment(apple: apple, delivery: "stream")
        }

        /// A JWSTransaction minted now, signed by the test chain's leaf; `more` adds or replaces fields.
        static func signed(
            _ productId: String, _ transactionId: String, type: String = "Non-Consumable",
            expiresIn days: Double? = nil, revoked: Bool = false, bundleId: String = SampleContent.bundleId,
            original: String? = nil, accountToken: String? = nil, more: [String: Any] = [:]
        ) throws -> String {
            let now = Date().timeIntervalSince1970 * 1000
            var payload: [String: Any] = [
                "transactionId": transactionId, "originalTransactionId": original ?? transactionId,
                "productId": productId,
                "bundleId": bundleId, "environment": "Sandbox", "signedDate": now, "purchaseDate": now - 60_000,
                "type": type, "quantity": 1,
            ]
            if let days {
                payload["expiresDate"] = now + days * 86_400_000
                payload["webOrderLineItemId"] = "9\(transactionId)"
            }
            if revoked { payload["revocationDate"] = now - 1_000 }
            if let accountToken { payload["appAccountToken"] = accountToken }
            payload.merge(more) { _, chosen in chosen }
            return try SignedVectors.mint(payload)
        }

        static func body(_ transactions: [String]) -> [UInt8] {
            Array((try? JSONSerialization.data(withJSONObject: ["signed-transactions": transactions])) ?? Data())
        }

        @Test func signedTransactionsAreVerifiedRecordedAndOpenDownloads() throws {
            let gateway = try Self.gateway()
            defer { gateway.stop() }
            let purchases = [
                try Self.signed(SampleContent.issueId, "610001"),
                try Self.signed(SampleContent.monthlyId, "610002", type: "Auto-Renewable Subscription", expiresIn: 20),
            ]
            let verified = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(purchases))
            #expect(verified.status == 200, "\(verified.text)")
            #expect(verified.json["status"] as? Int == 0)
            #expect(verified.json["environment"] as? String == "Sandbox")
            #expect(verified.entitlementProducts.sorted() == [SampleContent.monthlyId, SampleContent.issueId].sorted())
            let token = try #require(verified.downloadToken(for: SampleContent.issueId))
            let download = try gateway.download(SampleContent.issueId, token: token)
            #expect(SampleContent.sha256(download.body) == SampleContent.issueSHA256)

            let restored = try gateway.deployment.request(
                "/v1/restore-sync", method: "POST", body: Self.body(purchases))
            #expect(restored.json["recorded"] as? Int == 0)
            #expect(restored.json["known"] as? Int == 2)
            #expect(try gateway.ledgerCounts() == .init(purchases: 2, transactions: 2))

            let single = Array("{\"signed-transaction\":\"\(purchases[0])\"}".utf8)
            let posted = try gateway.deployment.request(
                "/v1/download/\(SampleContent.issueId)", method: "POST", body: single)
            #expect(posted.status == 200)
            #expect(SampleContent.sha256(posted.body) == SampleContent.issueSHA256)
        }

        @Test func aRevokedTransactionIsRecordedButOpensNothing() throws {
            let gateway = try Self.gateway()
            defer { gateway.stop() }
            let revoked = [try Self.signed(SampleContent.issueId, "620001", revoked: true)]
            let answer = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(revoked))
            #expect(answer.status == 200)
            #expect(answer.entitlementProducts.isEmpty)
            #expect(try gateway.ledgerCounts() == .init(purchases: 1, transactions: 1))
            let download = try gateway.deployment.request(
                "/v1/download/\(SampleContent.issueId)", method: "POST", body: Self.body(revoked))
            #expect(download.status == 403)
        }

        @Test func untrustedOrForeignSignedDataIsRefusedAndNothingIsRecorded() throws {
            let gateway = try Self.gateway()
            defer { gateway.stop() }
            let genuine = try Self.signed(SampleContent.issueId, "630001")
            let parts = genuine.split(separator: ".").map(String.init)
            let forged = SignedVectors.base64URL(Data("{\"transactionId\":\"1\",\"productId\":\"x\"}".utf8))
            let cases: [(String, Int, String)] = [
                ([parts[0], forged, parts[2]].joined(separator: "."), 422, "signature_invalid"),
                (try Self.signed(SampleContent.issueId, "630002", bundleId: "com.other.app"), 422, "bundle_mismatch"),
                (
                    try SignedVectors.mint(
                        SignedVectors.transaction(), chain: ["testInvalidOIDLeaf", "testIntermediate", "testCA"]), 422,
                    "signature_invalid"
                ),
                ("not.a.jws", 400, "bad_request"),
            ]
            var last: HTTPResponse?
            for (jws, status, code) in cases {
                let answer = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body([jws]))
                #expect(answer.status == status, "\(answer.text)")
                #expect(answer.errorCode == code, "\(answer.text)")
                last = answer
            }
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
            #expect(!(try gateway.logs(through: #require(last))).contains(parts[2]), "a signature reached the logs")
        }

        /// A subscription's signed renewal info is verified like any signed data, then refused as what it is,
        /// not as "transactions of different apps" (it carries no bundle id).
        @Test func aSignedRenewalInfoSentAsATransactionIsNamed() throws {
            let gateway = try Self.gateway()
            defer { gateway.stop() }
            let now = Date().timeIntervalSince1970 * 1000
            let renewal = try SignedVectors.mint([
                "originalTransactionId": "650001", "autoRenewProductId": SampleContent.monthlyId,
                "productId": SampleContent.monthlyId, "autoRenewStatus": 1, "signedDate": now,
                "environment": "Sandbox", "recentSubscriptionStartDate": now - 86_400_000,
            ])
            for body in [Self.body([renewal]), Self.body([try Self.signed(SampleContent.issueId, "650002"), renewal])] {
                let answer = try gateway.deployment.request("/v1/verify", method: "POST", body: body)
                #expect(answer.status == 400, "\(answer.text)")
                #expect(answer.errorCode == "bad_request")
                #expect(answer.text.contains("signed renewal info is not a transaction"), "\(answer.text)")
            }
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
        }

        @Test func environmentsAndRootsComeFromTheConfig() throws {
            let productionOnly = try Self.gateway(environments: "[Production]")
            defer { productionOnly.stop() }
            let sandbox = [try Self.signed(SampleContent.issueId, "640001")]
            let refused = try productionOnly.deployment.request("/v1/verify", method: "POST", body: Self.body(sandbox))
            #expect(refused.status == 422)
            #expect(refused.errorCode == "environment_not_accepted")

            let withoutRoots = try Self.gateway(roots: false)
            defer { withoutRoots.stop() }
            let untrusted = try withoutRoots.deployment.request("/v1/verify", method: "POST", body: Self.body(sandbox))
            #expect(untrusted.errorCode == "signature_invalid", "\(untrusted.text)")
        }
    }
}
