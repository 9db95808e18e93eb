import Crypto
import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// Finish Transaction (App Store Server API 1.20) through nginx: the gateway tells the Server API stand-in
    /// (JWT checked) that a consumable's or non-consumable's transaction is finished, once recorded or once
    /// delivered, from the ledger's follow-ups.
    @Suite struct FinishTransactions {
        static func gateway(_ mode: String) throws -> VerifyDeployment {
            try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain, delivery: "stream",
                serverAPIKey: P256.Signing.PrivateKey(), serverAPIExtra: ", finish_transactions: \(mode)")
        }

        /// The transactions the stand-in was asked to finish, each call authorized.
        static func finished(_ gateway: VerifyDeployment) throws -> [String] {
            try gateway.appStore.apiCalls().compactMap { call -> String? in
                guard let path = call["path"] as? String, path.hasSuffix("/finish") else { return nil }
                #expect(call["method"] as? String == "POST")
                #expect(call["authorized"] as? Bool == true)
                #expect((call["body"] as? String)?.isEmpty == true)
                return path.split(separator: "/").dropLast().last.map(String.init)
            }
        }

        /// The follow-ups of purchase `original`, as the ledger holds them.
        static func followUps(_ gateway: VerifyDeployment, _ original: String, in environment: String = "Production")
            throws -> [StoredFollowUp]
        {
            try SQLiteLedger(path: gateway.ledgerPath).followUps(
                environment: environment, originalTransactionId: original)
        }

        /// Waits until no follow-up of `originals` is pending (each done, given up, or waiting for a delivery).
        static func settle(_ gateway: VerifyDeployment, _ originals: [String], in environment: String = "Production")
            -> Bool
        {
            ManagedProcess.poll(for: .seconds(20)) {
                originals.allSatisfy { original in
                    let held = (try? followUps(gateway, original, in: environment)) ?? []
                    return held.allSatisfy { $0.state != .pending }
                }
            }
        }

        @Test func aRecordedPurchaseIsFinishedOnceAndOnlyWhatItShould() throws {
            let gateway = try Self.gateway("recorded")
            defer { gateway.stop() }
            let (issue, coins, old, monthly) = (
                ServerAPIRoutes.id(), ServerAPIRoutes.id(), ServerAPIRoutes.id(), ServerAPIRoutes.id()
            )
            var consumable = ServerAPIRoutes.purchase(SampleContent.coinsId, coins, customer: "finisher")
            consumable["type"] = "Consumable"
            // Bought long before the restore that finds it: the app finished it then.
            var bought = ServerAPIRoutes.purchase(SampleContent.issueId, old, customer: "finisher")
            bought["purchase"] = "-30d"
            var subscription = ServerAPIRoutes.purchase(SampleContent.monthlyId, monthly, customer: "finisher")
            subscription["type"] = "Auto-Renewable Subscription"
            subscription["expires"] = "+20d"
            try gateway.appStore.addAPI([
                ServerAPIRoutes.purchase(SampleContent.issueId, issue, customer: "finisher"), consumable, bought,
                subscription,
            ])
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: ServerAPIRoutes.body(issue))
            #expect(verified.status == 200, "\(verified.text)")
            #expect(Self.settle(gateway, [issue, coins, old, monthly]))
            #expect(try Self.finished(gateway).sorted() == [coins, issue].sorted())
            #expect(try Self.followUps(gateway, old).isEmpty)
            #expect(try Self.followUps(gateway, monthly).isEmpty)
            // Verified again: nothing new to finish.
            let again = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: ServerAPIRoutes.body(coins))
            #expect(again.status == 200, "\(again.text)")
            #expect(Self.settle(gateway, [issue, coins]))
            #expect(try Self.finished(gateway).count == 2)
            // Support sees it on the purchase's timeline, in words.
            let lookup = try SupportLookup.lookUp(gateway, ["--transaction-id", issue])
            #expect(lookup.output.contains("finish: done, Apple took it"), "\(lookup.output)")
            // Counted just after the ledger has it.
            let done = #"storegate_store_follow_ups_total{store="app-store",action="finish",outcome="done"} 2"#
            var metrics = ""
            #expect(
                ManagedProcess.poll(for: .seconds(10)) {
                    metrics = (try? gateway.deployment.request("/v1/metrics").text) ?? ""
                    return metrics.contains(done)
                }, "\(metrics)")
        }

        @Test func aPurchaseWithContentIsFinishedOnceDeliveredEvenAfterARestart() throws {
            let gateway = try Self.gateway("delivered")
            defer { gateway.stop() }
            let (issue, coins) = (ServerAPIRoutes.id(), ServerAPIRoutes.id())
            var consumable = ServerAPIRoutes.purchase(SampleContent.coinsId, coins, customer: "deliveree")
            consumable["type"] = "Consumable"
            try gateway.appStore.addAPI([
                ServerAPIRoutes.purchase(SampleContent.issueId, issue, customer: "deliveree"), consumable,
            ])
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: ServerAPIRoutes.body(issue))
            #expect(verified.status == 200, "\(verified.text)")
            // The coins have no content: finished once recorded. The issue waits for its download.
            #expect(Self.settle(gateway, [issue, coins]))
            #expect(try Self.finished(gateway) == [coins])
            #expect(try Self.followUps(gateway, issue).map(\.state) == [.waiting])

            // The gateway stops before the download; the ledger keeps what Apple must hear.
            try gateway.deployment.restartGateway()
            let token = try #require(verified.downloadToken(for: SampleContent.issueId))
            let download = try gateway.download(SampleContent.issueId, token: token)
            #expect(download.status == 200)
            // Done once Apple's answer is recorded, which follows the call the stand-in saw.
            #expect(
                ManagedProcess.poll(for: .seconds(20)) { (try? Self.followUps(gateway, issue).map(\.state)) == [.done] }
            )
            #expect(try Self.finished(gateway).sorted() == [coins, issue].sorted())
        }

        @Test func applesTroubleDefersAFinishAndItsRefusalGivesItUp() throws {
            let gateway = try Self.gateway("recorded")
            defer { gateway.stop() }
            let issue = ServerAPIRoutes.id()
            try gateway.appStore.addAPI([ServerAPIRoutes.purchase(SampleContent.issueId, issue, customer: "troubled")])
            try gateway.appStore.playAPI(
                Array(repeating: ["endpoint": "finish_transaction", "http_status": 503], count: 3))
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: ServerAPIRoutes.body(issue))
            #expect(verified.status == 200, "\(verified.text)")
            var deferred: StoredFollowUp?
            _ = ManagedProcess.poll(for: .seconds(20)) {
                deferred = try? Self.followUps(gateway, issue).first
                return deferred?.outcome != nil
            }
            #expect(deferred?.state == .pending)
            #expect(deferred?.followUp.attempts == 1)
            #expect(deferred?.outcome?.hasPrefix("Apple could not take it:") == true, "\(String(describing: deferred))")

            // A signed transaction Apple does not know (minted by the test chain, never sold): Apple's 404 gives
            // its finish up, in words.
            let unknown = try SignedTransactions.signed(SampleContent.issueId, ServerAPIRoutes.id())
            let signed = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: SignedTransactions.body([unknown]))
            #expect(signed.status == 200, "\(signed.text)")
            let original = try #require(signed.transactions.first?["original_transaction_id"] as? String)
            #expect(Self.settle(gateway, [original], in: "Sandbox"))
            let given = try Self.followUps(gateway, original, in: "Sandbox")
            #expect(given.map(\.state) == [.abandoned])
            #expect(given.first?.outcome?.hasPrefix("Apple refused it:") == true, "\(given)")
        }
    }
}
