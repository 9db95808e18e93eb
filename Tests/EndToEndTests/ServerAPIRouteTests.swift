import Crypto
import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// Bare transaction ids through nginx, verified by asking the Server API stand-in (JWT checked, answers
    /// signed by Apple's test chain, histories paged two at a time).
    @Suite struct ServerAPIRoutes {
        static func gateway(environment: [String: String] = [:]) throws -> VerifyDeployment {
            try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain, environment: environment, delivery: "stream",
                serverAPIKey: P256.Signing.PrivateKey())
        }

        static func body(_ id: String) -> [UInt8] { Array(#"{"transaction-id":"\#(id)"}"#.utf8) }

        /// Fresh digits, so tests never share ledger rows.
        static func id() -> String { "7\(UInt64.random(in: 100_000_000_000...999_999_999_999))" }

        static func purchase(_ product: String, _ id: String, customer: String, environment: String = "Production")
            -> [String: Any]
        {
            ["transaction_id": id, "product_id": product, "customer": customer, "environment": environment]
        }

        @Test func aBareIdIsVerifiedFromApplesHistoryAndRestoreFindsWhatTheDeviceDidNotSend() throws {
            let gateway = try Self.gateway()
            defer { gateway.stop() }
            let (issue, monthly, other) = (Self.id(), Self.id(), Self.id())
            var subscription = Self.purchase(SampleContent.monthlyId, monthly, customer: "reader")
            subscription["type"] = "Auto-Renewable Subscription"
            subscription["expires"] = "+20d"
            subscription["purchase"] = "-2d"
            try gateway.appStore.addAPI([
                Self.purchase(SampleContent.issueId, issue, customer: "reader"), subscription,
                Self.purchase(SampleContent.issueId, other, customer: "someone-else"),
            ])
            let verified = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(issue))
            #expect(verified.status == 200, "\(verified.text)")
            #expect(verified.json["environment"] as? String == "Production")
            #expect(verified.entitlementProducts.sorted() == [SampleContent.monthlyId, SampleContent.issueId].sorted())
            let token = try #require(verified.downloadToken(for: SampleContent.issueId))
            let download = try gateway.download(SampleContent.issueId, token: token)
            #expect(SampleContent.sha256(download.body) == SampleContent.issueSHA256)
            // The device knows only the subscription's id; Apple's history brings the issue too.
            let restored = try gateway.deployment.request("/v1/restore-sync", method: "POST", body: Self.body(monthly))
            #expect(restored.status == 200, "\(restored.text)")
            #expect(restored.entitlementProducts.contains(SampleContent.issueId))
            #expect(try gateway.ledgerCounts().transactions == 2)
            let posted = try gateway.deployment.request(
                "/v1/download/\(SampleContent.issueId)", method: "POST", body: Self.body(monthly))
            #expect(posted.status == 200, "\(posted.text)")
            #expect(SampleContent.sha256(posted.body) == SampleContent.issueSHA256)
            let paths = try gateway.appStore.apiCalls().compactMap { $0["path"] as? String }
            #expect(paths.contains("/inApps/v2/history/\(issue)"))
            #expect(try gateway.appStore.apiCalls().allSatisfy { $0["authorized"] as? Bool == true })
        }

        @Test func withoutServerAPIABareIdIsABadRequest() throws {
            let gateway = try VerifyDeployment(apple: VerifyDeployment.trustingTestChain, delivery: "stream")
            defer { gateway.stop() }
            let refused = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(Self.id()))
            #expect(refused.status == 400)
            #expect(refused.errorCode == "bad_request")
        }

        @Test func aSandboxIdIsAskedInTheSandboxAfterProductionDoesNotKnowIt() throws {
            let gateway = try Self.gateway()
            defer { gateway.stop() }
            let id = Self.id()
            try gateway.appStore.addAPI([
                Self.purchase(SampleContent.issueId, id, customer: "tester", environment: "Sandbox")
            ])
            let verified = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(id))
            #expect(verified.status == 200, "\(verified.text)")
            #expect(verified.json["environment"] as? String == "Sandbox")
            let paths = try gateway.appStore.apiCalls().compactMap { $0["path"] as? String }
            // The history's transactions carry no appTransactionId: the customer's is asked where Apple knew the id.
            #expect(
                paths == [
                    "/inApps/v2/history/\(id)", "/sandbox/inApps/v2/history/\(id)",
                    "/sandbox/inApps/v1/transactions/appTransactions/\(id)",
                ])
        }

        @Test func appleLyingThrottlingOrDownIsAnsweredAndRecordsNothing() throws {
            let gateway = try Self.gateway()
            defer { gateway.stop() }
            let id = Self.id()
            try gateway.appStore.addAPI([Self.purchase(SampleContent.issueId, id, customer: "victim")])
            let unknown = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(Self.id()))
            #expect(unknown.status == 422)
            #expect(unknown.errorCode == "transaction_not_found")
            try gateway.appStore.playAPI([["forged": true]])
            let forged = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(id))
            #expect(forged.status == 503, "\(forged.text)")
            try gateway.appStore.playAPI(Array(repeating: ["http_status": 503], count: 3))
            let down = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(id))
            #expect(down.status == 503)
            #expect(down.errorCode == "upstream_unavailable")
            #expect(down.header("Retry-After") != nil)
            let status = try gateway.deployment.request("/v1/status")
            let lastError = (status.json["upstream"] as? [String: Any])?["last_error"] as? String
            #expect(lastError?.contains("App Store Server API unavailable: HTTP 503") == true, "\(status.text)")
            #expect(try gateway.ledgerCounts().transactions == 0)
            try gateway.appStore.playAPI([["http_status": 429, "retry_after_s": 60]])
            let limited = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(id))
            #expect(limited.status == 503)
            #expect((Int(limited.header("Retry-After") ?? "") ?? 0) >= 50)
            let callsBefore = try gateway.appStore.apiCalls().count
            let held = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(id))
            #expect(held.status == 503)
            #expect(try gateway.appStore.apiCalls().count == callsBefore)
        }

        @Test func aRefusedKeyIs502AndNeitherKeyNorTokenIsLogged() throws {
            let wrongKey = P256.Signing.PrivateKey()
            let gateway = try Self.gateway(environment: ["STOREGATE_APPLE_SERVER_API_KEY": wrongKey.pemRepresentation])
            defer { gateway.stop() }
            let id = Self.id()
            try gateway.appStore.addAPI([Self.purchase(SampleContent.issueId, id, customer: "anyone")])
            let refused = try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body(id))
            #expect(refused.status == 502)
            #expect(refused.errorCode == "upstream_misconfigured")
            #expect(try gateway.appStore.apiCalls().map { $0["authorized"] as? Bool } == [false])
            let logs = try gateway.logs(through: refused)
            #expect(logs.contains("401"))
            #expect(!logs.contains("eyJ"))
            for line in wrongKey.pemRepresentation.split(separator: "\n") where !line.hasPrefix("-----") {
                #expect(!logs.contains(line))
            }
        }
    }
}
