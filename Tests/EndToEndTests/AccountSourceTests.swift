import Crypto
import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// Where an account comes from besides a signed header: nginx's auth_request to the app's login service
    /// (the deploy/ site's account lines), and Apple's appAccountToken, which the gateway can also set.
    @Suite struct AccountSources {
        @Test func nginxAssertsTheAccountFromTheAppsLoginService() throws {
            let gateway = try Accounts.gateway(
                policy: "keep", sessions: ["s-alice": Accounts.alice, "s-bob": Accounts.bob])
            defer { gateway.stop() }
            let issue = try SignedTransactions.signed(SampleContent.issueId, Accounts.id())
            func post(_ route: String, session: String) throws -> HTTPResponse {
                try gateway.deployment.request(
                    "/v1/\(route)", method: "POST", headers: [("X-App-Session", session)],
                    body: SignedTransactions.body([issue]))
            }
            let bought = try post("verify", session: "s-alice")
            #expect(bought.status == 200, "\(bought.text)")
            #expect((bought.json["account"] as? [String: Any])?["id"] as? String == Accounts.alice)
            let refused = try post("restore-sync", session: "s-bob")
            #expect(refused.status == 409, "\(refused.text)")
            #expect(refused.errorCode == "held_by_another_account")

            let held = try gateway.deployment.request("/v1/entitlements", headers: [("X-App-Session", "s-alice")])
            #expect(held.status == 200, "\(held.text)")
            #expect(held.entitlementProducts == [SampleContent.issueId])
            #expect((held.json["entitlements"] as? [[String: Any]])?.map { $0["store"] as? String } == ["app-store"])
            let token = try #require(held.downloadToken(for: SampleContent.issueId))
            let download = try gateway.deployment.request(
                "/v1/download/\(SampleContent.issueId)",
                headers: [("Authorization", "Bearer \(token)"), ("X-App-Session", "s-alice")])
            #expect(SampleContent.sha256(download.body) == SampleContent.issueSHA256)
            // The login service refuses an unknown session; no session is an anonymous request.
            #expect(try post("verify", session: "s-mallory").status == 401)
            let anonymous = try gateway.deployment.request("/v1/entitlements")
            #expect(anonymous.errorCode == "account_required")
            #expect(try gateway.deployment.request("/v1/catalog").status == 200)
        }

        @Test func theAppBackendsExampleScriptMakesAssertionsTheGatewayTakes() throws {
            let gateway = try Accounts.gateway(policy: "keep")
            defer { gateway.stop() }
            let script = try ManagedProcess(
                "/usr/bin/python3",
                [Binaries.deploy.appendingPathComponent("accounts/assert_account.py").path, "reader-7", "120"],
                environment: ["STOREGATE_ACCOUNTS_SECRET": Accounts.secret],
                logFile: gateway.deployment.folder.appendingPathComponent("assert.log"))
            #expect(script.waitForExit(within: .seconds(20)) == 0, "\(script.log)")
            let assertion = script.log.trimmingCharacters(in: .whitespacesAndNewlines)
            let held = try gateway.deployment.request(
                "/v1/entitlements", headers: [("X-StoreGate-Account", assertion)])
            #expect(held.status == 200, "\(held.text)")
            #expect(held.json["account_id"] as? String == "reader-7")
        }

        @Test func applesAppAccountTokenBindsThePurchaseToItsAccount() throws {
            let gateway = try Accounts.gateway(policy: "keep")
            defer { gateway.stop() }
            let account = UUID()
            let issue = try SignedTransactions.signed(
                SampleContent.issueId, Accounts.id(), accountToken: account.uuidString)
            // Verified without an account: Apple's token names it.
            let verified = try Accounts.post("verify", [issue], as: nil, to: gateway)
            #expect(verified.status == 200, "\(verified.text)")
            let owner = account.uuidString.lowercased()
            #expect(try Accounts.holdings(owner, in: gateway) == [SampleContent.issueId])
            let other = try Accounts.post("restore-sync", [issue], as: Accounts.bob, to: gateway)
            #expect(other.errorCode == "held_by_another_account", "\(other.text)")
        }

        @Test func aBoundPurchaseWithoutATokenGetsItFromTheServerAPI() throws {
            let gateway = try Accounts.gateway(
                policy: "transfer", serverAPIKey: P256.Signing.PrivateKey(),
                serverAPIExtra: ", set_app_account_token: true")
            defer { gateway.stop() }
            let (redeemed, other, last) = (ServerAPIRoutes.id(), ServerAPIRoutes.id(), ServerAPIRoutes.id())
            try gateway.appStore.addAPI([
                ServerAPIRoutes.purchase(SampleContent.issueId, redeemed, customer: "offer-code"),
                ServerAPIRoutes.purchase(SampleContent.issueId, other, customer: "someone"),
                ServerAPIRoutes.purchase(SampleContent.issueId, last, customer: "someone else"),
            ])
            let account = UUID().uuidString.lowercased()
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", headers: [Accounts.asserting(account)],
                body: ServerAPIRoutes.body(redeemed))
            #expect(verified.status == 200, "\(verified.text)")
            let path = "/inApps/v1/transactions/\(redeemed)/appAccountToken"
            var set: [String: Any]?
            _ = ManagedProcess.poll(for: .seconds(10)) {
                set = (try? gateway.appStore.apiCalls())?.first { $0["path"] as? String == path }
                return set != nil
            }
            #expect(set?["method"] as? String == "PUT")
            #expect(set?["body"] as? String == #"{"appAccountToken":"\#(account)"}"#)
            // An account id that is not a UUID cannot be an appAccountToken: nothing is sent.
            let named = try gateway.deployment.request(
                "/v1/verify", method: "POST", headers: [Accounts.asserting(Accounts.bob)],
                body: ServerAPIRoutes.body(other))
            #expect(named.status == 200, "\(named.text)")
            // Calls go out in order, from one queue: once a later binding's call has arrived, an earlier one
            // would have too.
            let later = try gateway.deployment.request(
                "/v1/verify", method: "POST", headers: [Accounts.asserting(UUID().uuidString.lowercased())],
                body: ServerAPIRoutes.body(last))
            #expect(later.status == 200, "\(later.text)")
            let laterPath = "/inApps/v1/transactions/\(last)/appAccountToken"
            var calls: [String] = []
            _ = ManagedProcess.poll(for: .seconds(10)) {
                calls = ((try? gateway.appStore.apiCalls()) ?? []).compactMap { $0["path"] as? String }
                return calls.contains(laterPath)
            }
            #expect(calls.filter { $0.hasSuffix("/appAccountToken") } == [path, laterPath])
        }
    }
}
