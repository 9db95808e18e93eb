import Crypto
import Foundation
import PurchaseLedger
import PurchaseVerification
import Testing

extension EndToEnd {
    /// Purchases bound to the app's own accounts, through nginx: asserted by a signed header or by nginx's
    /// auth_request, each restore policy with two accounts on one Apple ID, entitlements without a receipt,
    /// refunds after a transfer, forged assertions, two gateways racing, and Apple's appAccountToken.
    @Suite struct Accounts {
        static let secret = "test-account-secret-0123456789"
        static let assertions = AccountAssertions(secret: secret, maximumLifetime: 900)
        static let (alice, bob) = ("alice", "bob")

        static func gateway(
            policy: String, more: [String] = [], gateways: Int = 1, sessions: [String: String]? = nil,
            serverAPIKey: P256.Signing.PrivateKey? = nil, serverAPIExtra: String = ""
        ) throws -> VerifyDeployment {
            try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain, delivery: "stream", gateways: gateways,
                serverAPIKey: serverAPIKey, serverAPIExtra: serverAPIExtra,
                extra: """
                    accounts:
                      asserted_by: [web-server, signed]
                      secret: \(secret)
                      restore_policy: \(policy)
                    \(more.map { "  \($0)\n" }.joined())
                    """,
                nginxAccounts: sessions)
        }

        /// The header that says `account` is asking, valid for `lifetime`.
        static func asserting(_ account: String, lifetime: TimeInterval = 300, secret: String = Self.secret)
            -> (String, String)
        {
            let assertions = AccountAssertions(secret: secret, maximumLifetime: 900)
            return ("X-StoreGate-Account", assertions.issue(accountId: account, lifetime: lifetime))
        }

        static func post(
            _ route: String, _ transactions: [String], as account: String?, to gateway: VerifyDeployment
        ) throws -> HTTPResponse {
            try gateway.deployment.request(
                "/v1/\(route)", method: "POST", headers: account.map { [asserting($0)] } ?? [],
                body: SignedTransactions.body(transactions))
        }

        /// The products `account`'s `GET /v1/entitlements` answers.
        static func holdings(_ account: String, in gateway: VerifyDeployment) throws -> [String] {
            let answer = try gateway.deployment.request("/v1/entitlements", headers: [asserting(account)])
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["account_id"] as? String == account)
            return answer.entitlementProducts
        }

        static func id() -> String { "8\(UInt64.random(in: 100_000_000...999_999_999))" }

        @Test(arguments: ["transfer", "keep", "share"])
        func twoAccountsOnOneAppleIdRestoreInBothOrders(policy: String) throws {
            let gateway = try Self.gateway(policy: policy)
            defer { gateway.stop() }
            let issue = try SignedTransactions.signed(SampleContent.issueId, Self.id())
            let bought = try Self.post("verify", [issue], as: Self.alice, to: gateway)
            #expect(bought.status == 200, "\(bought.text)")
            #expect((bought.json["account"] as? [String: Any])?["id"] as? String == Self.alice)
            #expect(try Self.holdings(Self.alice, in: gateway) == [SampleContent.issueId])
            #expect(try Self.holdings(Self.bob, in: gateway).isEmpty)

            // Bob signs in on the same device (same Apple ID) and restores.
            let restored = try Self.post("restore-sync", [issue], as: Self.bob, to: gateway)
            switch policy {
            case "keep":
                #expect(restored.status == 409, "\(restored.text)")
                #expect(restored.errorCode == "held_by_another_account")
                #expect(try Self.holdings(Self.alice, in: gateway) == [SampleContent.issueId])
                #expect(try Self.holdings(Self.bob, in: gateway).isEmpty)
            case "transfer":
                #expect(restored.status == 200, "\(restored.text)")
                #expect(restored.downloadToken(for: SampleContent.issueId) != nil)
                #expect(try Self.holdings(Self.alice, in: gateway).isEmpty)
                #expect(try Self.holdings(Self.bob, in: gateway) == [SampleContent.issueId])
            default:
                #expect(restored.status == 200, "\(restored.text)")
                #expect(try Self.holdings(Self.alice, in: gateway) == [SampleContent.issueId])
                #expect(try Self.holdings(Self.bob, in: gateway) == [SampleContent.issueId])
            }

            // Then Alice restores again.
            let back = try Self.post("restore-sync", [issue], as: Self.alice, to: gateway)
            #expect(back.status == 200, "\(back.text)")
            #expect(try Self.holdings(Self.alice, in: gateway) == [SampleContent.issueId])
            #expect(try Self.holdings(Self.bob, in: gateway) == (policy == "share" ? [SampleContent.issueId] : []))
            #expect(try gateway.logs(through: back).contains("account=\(Self.bob)"))
            // Without an account nothing changes: today's answer, no account member.
            let anonymous = try Self.post("verify", [issue], as: nil, to: gateway)
            #expect(anonymous.status == 200, "\(anonymous.text)")
            #expect(anonymous.json["account"] == nil)
            #expect(anonymous.entitlementProducts == [SampleContent.issueId])
        }

        @Test func aRefundAfterATransferTakesThePurchaseFromTheNewHolderAndSupportSeesIt() throws {
            let gateway = try Self.gateway(policy: "transfer")
            defer { gateway.stop() }
            let id = Self.id()
            let issue = try SignedTransactions.signed(SampleContent.issueId, id)
            #expect(try Self.post("verify", [issue], as: Self.alice, to: gateway).status == 200)
            #expect(try Self.post("restore-sync", [issue], as: Self.bob, to: gateway).status == 200)
            let held = try gateway.deployment.request("/v1/entitlements", headers: [Self.asserting(Self.bob)])
            let token = try #require(held.downloadToken(for: SampleContent.issueId))
            let download = try gateway.download(SampleContent.issueId, token: token)
            #expect(SampleContent.sha256(download.body) == SampleContent.issueSHA256)

            let refund = try SignedTransactions.signed(SampleContent.issueId, id, revoked: true)
            #expect(try Notifications.post("REFUND", transaction: refund, to: gateway).status == 200)
            #expect(try Self.holdings(Self.bob, in: gateway).isEmpty)
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 403)

            let metrics = try gateway.deployment.request("/v1/metrics").text
            #expect(metrics.contains(#"storegate_account_claims_total{outcome="bound"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"storegate_account_claims_total{outcome="transferred"} 1"#))
            let page = try gateway.deployment.request("/v1/support?q=\(id)").text
            #expect(page.contains("held by account bob"))
            #expect(page.contains("bound to account alice"))
            #expect(page.contains("transferred to account bob from alice"))
        }

        @Test func forgedExpiredOrMissingAssertionsAreRefusedAndChangeNothing() throws {
            let gateway = try Self.gateway(policy: "transfer")
            defer { gateway.stop() }
            let issue = try SignedTransactions.signed(SampleContent.issueId, Self.id())
            let refusals: [(String, String)] = [
                Self.asserting(Self.alice, secret: "another-secret-0123456789"),
                Self.asserting(Self.alice, lifetime: -5),
                Self.asserting(Self.alice, lifetime: 3_600),
                ("X-StoreGate-Account", "garbage"),
                ("X-StoreGate-Account", ""),
            ]
            for header in refusals {
                let answer = try gateway.deployment.request(
                    "/v1/verify", method: "POST", headers: [header], body: SignedTransactions.body([issue]))
                #expect(answer.status == 401, "\(answer.text)")
                #expect(answer.errorCode == "account_assertion_invalid")
                let held = try gateway.deployment.request("/v1/entitlements", headers: [header])
                #expect(held.errorCode == "account_assertion_invalid")
            }
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
            // A client's own header that looks like the web server's parameter is not an account.
            let spoofed = try gateway.deployment.request(
                "/v1/entitlements", headers: [("Storegate-Account", Self.alice), ("STOREGATE_ACCOUNT", Self.alice)])
            #expect(spoofed.status == 401, "\(spoofed.text)")
            #expect(spoofed.errorCode == "account_required")
            let logs = try gateway.logs(through: spoofed)
            #expect(!logs.contains(Self.secret))
            #expect(!refusals.contains { !$0.1.isEmpty && logs.contains($0.1) })
        }

        @Test func twoGatewaysBindingOnePurchaseAtOnceMakeOneBinding() throws {
            let gateway = try Self.gateway(policy: "keep", gateways: 2)
            defer { gateway.stop() }
            for _ in 0..<6 {
                let id = Self.id()
                let issue = try SignedTransactions.signed(SampleContent.issueId, id)
                let answers = concurrently(2) { index in
                    try? Self.post("verify", [issue], as: index == 0 ? Self.alice : Self.bob, to: gateway)
                }
                #expect(answers.compactMap { $0?.status }.sorted() == [200, 409], "\(answers.map { $0?.text })")
                let holders = try SQLiteLedger(path: gateway.ledgerPath).holders(
                    environment: "Sandbox", originalTransactionId: id)
                #expect(holders.count == 1)
                let winner = answers.first { $0?.status == 200 }??.json["account"] as? [String: Any]
                #expect(holders == [winner?["id"] as? String ?? ""])
            }
        }
    }
}
