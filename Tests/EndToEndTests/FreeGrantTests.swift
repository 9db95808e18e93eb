import Foundation
import Testing

extension EndToEnd {
    /// `storegate grant`: a product given away through the seam, never by a handler: to an app account (listed
    /// by the entitlements route) or with a customer's purchase (brought by its verify), downloaded through
    /// nginx, on the support timeline and in metrics, until revoked.
    @Suite struct FreeGrants {
        static func run(_ gateway: VerifyDeployment, _ arguments: [String]) throws -> CommandLine.Outcome {
            let setup = gateway.deployment.setup
            return try CommandLine.run(
                arguments + ["--config", gateway.deployment.configFile.path], binary: setup.binary,
                environment: setup.environment)
        }

        /// The grant id in a command's output.
        static func grantId(in output: String) -> String? {
            output.firstMatch(of: /grant-[0-9a-f]{16}/).map { String($0.output) }
        }

        /// `storegate_free_grants_active` as `/v1/metrics` has it now.
        static func activeGrants(_ gateway: VerifyDeployment) throws -> Double? {
            let scrape = try gateway.deployment.request("/v1/metrics").text
            return scrape.split(separator: "\n").first { $0.hasPrefix("storegate_free_grants_active ") }
                .flatMap { Double($0.dropFirst("storegate_free_grants_active ".count)) }
        }

        @Test func anAccountGrantDownloadsUntilItIsRevoked() throws {
            let gateway = try Accounts.gateway(policy: "keep")
            defer { gateway.stop() }
            let reader = "reader-7"
            let given = try Self.run(
                gateway,
                [
                    "grant", "--product", SampleContent.issueId, "--account", reader, "--reason",
                    "press copy for the review", "--by", "alice", "--expires", "30d",
                ])
            #expect(given.status == 0, "\(given.errors)")
            #expect(given.output.hasPrefix("granted: grant-"), "\(given.output)")
            let id = try #require(Self.grantId(in: given.output))

            let held = try gateway.deployment.request("/v1/entitlements", headers: [Accounts.asserting(reader)])
            #expect(held.entitlementProducts == [SampleContent.issueId], "\(held.text)")
            let token = try #require(held.downloadToken(for: SampleContent.issueId))
            let download = try gateway.download(SampleContent.issueId, token: token)
            #expect(download.status == 200)
            #expect(SampleContent.sha256(download.body) == SampleContent.issueSHA256)
            #expect(try Self.activeGrants(gateway) == 1)

            let story = try Self.run(gateway, ["lookup", "--grant", id])
            #expect(story.status == 0, "\(story.errors)")
            for expected in ["Free grant \(id)", "granted", "press copy for the review", "by alice", "downloaded"] {
                #expect(story.output.contains(expected), "no \(expected) in:\n\(story.output)")
            }
            #expect(!story.output.contains("  bought "), "a grant is not told as bought:\n\(story.output)")
            let page = try gateway.deployment.request("/v1/support?q=\(id)")
            #expect(page.status == 200)
            #expect(page.text.contains("press copy for the review"), "\(page.text)")
            #expect(try Self.run(gateway, ["grant", "list"]).output.contains(id))

            let revoked = try Self.run(
                gateway, ["grant", "revoke", "--grant", id, "--reason", "sent twice", "--by", "bob"])
            #expect(revoked.status == 0, "\(revoked.errors)")
            #expect(revoked.output.hasPrefix("revoked: \(id)"), "\(revoked.output)")
            let refused = try gateway.download(SampleContent.issueId, token: token)
            #expect(refused.status == 403)
            #expect(refused.errorCode == "not_entitled")
            let after = try gateway.deployment.request("/v1/entitlements", headers: [Accounts.asserting(reader)])
            #expect(after.entitlementProducts.isEmpty, "\(after.text)")
            #expect(try Self.activeGrants(gateway) == 0)
            #expect(try Self.run(gateway, ["lookup", "--grant", id]).output.contains("grant revoked"))
            let again = try Self.run(gateway, ["grant", "revoke", "--grant", id, "--reason", "again", "--by", "carol"])
            #expect(again.output.hasPrefix("already revoked: \(id)"), "\(again.output)")
            #expect(try Self.run(gateway, ["grant", "list"]).output.contains("No free grant is in force."))
            #expect(try Self.run(gateway, ["grant", "list", "--all"]).output.contains(id))
        }

        @Test func aCustomersGrantComesWithTheirPurchase() throws {
            let gateway = try VerifyDeployment(apple: VerifyDeployment.trustingTestChain, delivery: "stream")
            defer { gateway.stop() }
            let original = Accounts.id()
            let coins = try SignedTransactions.signed(SampleContent.coinsId, original, type: "Consumable")
            let body = SignedTransactions.body([coins])
            let first = try gateway.deployment.request("/v1/verify", method: "POST", body: body)
            #expect(first.status == 200, "\(first.text)")
            #expect(first.entitlementProducts.isEmpty)

            for (arguments, refusal) in [
                (["--customer", "9999999999"], "the ledger holds no purchase 9999999999"),
                (["--account", "reader-7"], "the config has no accounts section"),
                (["--customer", original, "--product", "com.example.nothing"], "the catalog has no product"),
            ] {
                var line = ["grant", "--reason", "goodwill", "--by", "alice"] + arguments
                if !arguments.contains("--product") { line += ["--product", SampleContent.issueId] }
                let outcome = try Self.run(gateway, line)
                #expect(outcome.status == 1)
                #expect(outcome.errors.contains(refusal), "\(outcome.errors)")
            }
            let given = try Self.run(
                gateway,
                [
                    "grant", "--product", SampleContent.issueId, "--customer", original, "--reason",
                    "the coins never arrived", "--by", "alice",
                ])
            #expect(given.status == 0, "\(given.errors)")
            let id = try #require(Self.grantId(in: given.output))

            // The grant comes with the next verify of the purchase (the gateway reads grants every 2 seconds).
            var verified = try gateway.deployment.request("/v1/verify", method: "POST", body: body)
            _ = ManagedProcess.poll(for: .seconds(10)) {
                verified = (try? gateway.deployment.request("/v1/verify", method: "POST", body: body)) ?? verified
                return verified.entitlementProducts == [SampleContent.issueId]
            }
            #expect(verified.entitlementProducts == [SampleContent.issueId], "\(verified.text)")
            let entitlement = (verified.json["entitlements"] as? [[String: Any]])?.first
            #expect(entitlement?["original_transaction_id"] as? String == id)
            let token = try #require(verified.downloadToken(for: SampleContent.issueId))
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 200)
            let story = try SupportLookup.lookUp(gateway, ["--transaction-id", original])
            #expect(story.output.contains("the coins never arrived"), "\(story.output)")

            _ = try Self.run(
                gateway, ["grant", "revoke", "--grant", id, "--reason", "refunded instead", "--by", "bob"])
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 403)
            var after = verified
            _ = ManagedProcess.poll(for: .seconds(10)) {
                after = (try? gateway.deployment.request("/v1/verify", method: "POST", body: body)) ?? after
                return after.entitlementProducts.isEmpty
            }
            #expect(after.entitlementProducts.isEmpty, "\(after.text)")
        }
    }
}
