import Foundation
import Testing

extension EndToEnd {
    /// The restore policy's finer keys through nginx: the sandbox's own policy, a product type's own policy, a
    /// download that binds like a verify, and an answer that keeps what another account holds out.
    @Suite struct AccountPolicies {
        @Test func theSandboxsPolicyAppliesToSandboxPurchases() throws {
            // The signed test transactions are Sandbox purchases: keep would refuse Bob, the sandbox shares.
            let gateway = try Accounts.gateway(policy: "keep", more: ["sandbox_restore_policy: share"])
            defer { gateway.stop() }
            let issue = try SignedTransactions.signed(SampleContent.issueId, Accounts.id())
            #expect(try Accounts.post("verify", [issue], as: Accounts.alice, to: gateway).status == 200)
            let shared = try Accounts.post("restore-sync", [issue], as: Accounts.bob, to: gateway)
            #expect(shared.status == 200, "\(shared.text)")
            #expect(try Accounts.holdings(Accounts.alice, in: gateway) == [SampleContent.issueId])
            #expect(try Accounts.holdings(Accounts.bob, in: gateway) == [SampleContent.issueId])
        }

        @Test func aProductTypesPolicyWinsAndADownloadBindsLikeAVerify() throws {
            let gateway = try Accounts.gateway(
                policy: "keep", more: ["restore_policy_by_type: {auto-renewable: transfer}"])
            defer { gateway.stop() }
            let issue = try SignedTransactions.signed(SampleContent.issueId, Accounts.id())
            let monthly = try SignedTransactions.signed(
                SampleContent.monthlyId, Accounts.id(), type: "Auto-Renewable Subscription", expiresIn: 20)
            // Alice's first use of the issue is a download with the signed transaction.
            let downloaded = try gateway.deployment.request(
                "/v1/download/\(SampleContent.issueId)", method: "POST", headers: [Accounts.asserting(Accounts.alice)],
                body: SignedTransactions.body([issue]))
            #expect(SampleContent.sha256(downloaded.body) == SampleContent.issueSHA256)
            #expect(try Accounts.holdings(Accounts.alice, in: gateway) == [SampleContent.issueId])

            // Bob verifies the same Apple ID's purchases: the issue stays with Alice (keep), the subscription is his.
            let verified = try Accounts.post("verify", [issue, monthly], as: Accounts.bob, to: gateway)
            #expect(verified.status == 200, "\(verified.text)")
            #expect(verified.entitlementProducts == [SampleContent.monthlyId])
            let account = verified.json["account"] as? [String: Any]
            #expect(account?["held_by_other_accounts"] as? [String] == [SampleContent.issueId])
            let refused = try gateway.deployment.request(
                "/v1/download/\(SampleContent.issueId)", method: "POST", headers: [Accounts.asserting(Accounts.bob)],
                body: SignedTransactions.body([issue]))
            #expect(refused.errorCode == "held_by_another_account", "\(refused.text)")

            // Alice restores: the subscription's type transfers it, the issue was hers already.
            #expect(try Accounts.post("restore-sync", [issue, monthly], as: Accounts.alice, to: gateway).status == 200)
            #expect(
                try Accounts.holdings(Accounts.alice, in: gateway) == [SampleContent.issueId, SampleContent.monthlyId])
            #expect(try Accounts.holdings(Accounts.bob, in: gateway).isEmpty)
        }
    }
}
