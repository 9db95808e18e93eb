import AppStoreSignedData
import Crypto
import Foundation
import PurchaseLedger
import SignedTestData
import Testing

extension EndToEnd {
    /// `apple.verifier: server-api` through nginx: an app receipt names transaction ids, signed transactions
    /// are verified here, and in both cases Apple's transaction history (the stand-in's, signed by the test
    /// chain) is what is recorded and answered.
    @Suite struct ServerAPIVerifier {
        static let receiptBundleId = LocalReceipts.bundleId

        static func gateway(bundleId: String = SampleContent.bundleId) throws -> VerifyDeployment {
            var apple = VerifyDeployment.trustingTestChain
            apple["verifier"] = "server-api"
            apple["bundle_ids"] = "[\(SampleContent.bundleId), \(receiptBundleId)]"
            return try VerifyDeployment(
                apple: apple, delivery: "stream", serverAPIKey: P256.Signing.PrivateKey(), serverAPIBundleId: bundleId)
        }

        /// The Get Transaction History calls the stand-in received, in order.
        static func historyPaths(_ gateway: VerifyDeployment) throws -> [String] {
            try gateway.appStore.apiCalls().compactMap { $0["path"] as? String }.filter { $0.contains("/v2/history/") }
        }

        @Test func aReceiptIsAnsweredWithApplesHistoryOfTheCustomerItNames() throws {
            let gateway = try Self.gateway(bundleId: Self.receiptBundleId)
            defer { gateway.stop() }
            let receipt = try LocalReceipts.realReceipt
            let ids = try AppReceipt(unverified: try #require(Data(base64Encoded: receipt))).inAppPurchases
                .map(\.transactionId)
            #expect(ids.count == 9)
            // Apple knows the receipt's purchases as issues, and a subscription bought since on another device.
            let later = ServerAPIRoutes.id()
            var subscription = ServerAPIRoutes.purchase(
                SampleContent.monthlyId, later, customer: "rc", environment: "Sandbox")
            subscription["type"] = "Auto-Renewable Subscription"
            subscription["expires"] = "+20d"
            try gateway.appStore.addAPI(
                ids.map { ServerAPIRoutes.purchase(SampleContent.issueId, $0, customer: "rc", environment: "Sandbox") }
                    + [subscription])
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: LocalReceipts.body(receipt))
            #expect(verified.status == 200, "\(verified.text)")
            #expect(verified.json["environment"] as? String == "Sandbox")
            #expect(verified.json["bundle_id"] as? String == Self.receiptBundleId)
            #expect(Set(verified.transactions.compactMap { $0["transaction_id"] as? String }) == Set(ids + [later]))
            #expect(verified.entitlementProducts.sorted() == [SampleContent.monthlyId, SampleContent.issueId].sorted())
            #expect(try gateway.ledgerCounts().transactions == 10)
            // One history asked (five pages of two), about an id the receipt holds: production, then the sandbox.
            let paths = try Self.historyPaths(gateway)
            let asked = try #require(paths.first?.split(separator: "/").last.map(String.init))
            #expect(ids.contains(asked))
            #expect(paths.prefix(2) == ["/inApps/v2/history/\(asked)", "/sandbox/inApps/v2/history/\(asked)"])
            #expect(paths.dropFirst().allSatisfy { $0.hasPrefix("/sandbox/inApps/v2/history/\(asked)") })
            #expect(paths.count == 6)
            // Asked again within apple.cache_ttl_s: answered from the cache, Apple is not called.
            let again = try gateway.deployment.request(
                "/v1/restore-sync", method: "POST", body: LocalReceipts.body(receipt))
            #expect(again.status == 200, "\(again.text)")
            #expect(again.json["known"] as? Int == 10)
            #expect(try Self.historyPaths(gateway).count == 6)
            // Not a receipt: refused without asking Apple.
            let garbage = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: LocalReceipts.body(Data("not a receipt".utf8).base64EncodedString())
            )
            #expect(garbage.status == 400, "\(garbage.text)")
            #expect(try Self.historyPaths(gateway).count == 6)
        }

        @Test func restoreWithSignedTransactionsTakesApplesWholeHistory() throws {
            let gateway = try Self.gateway()
            defer { gateway.stop() }
            let (issue, monthly) = (ServerAPIRoutes.id(), ServerAPIRoutes.id())
            // The device holds the issue as bought; Apple has refunded it since, and knows of a subscription.
            var refunded = ServerAPIRoutes.purchase(
                SampleContent.issueId, issue, customer: "owner", environment: "Sandbox")
            refunded["revoked"] = "-1h"
            var subscription = ServerAPIRoutes.purchase(
                SampleContent.monthlyId, monthly, customer: "owner", environment: "Sandbox")
            subscription["type"] = "Auto-Renewable Subscription"
            subscription["expires"] = "+20d"
            try gateway.appStore.addAPI([refunded, subscription])
            let sent = SignedTransactions.body([try SignedTransactions.signed(SampleContent.issueId, issue)])
            // A verify believes the signed transaction alone, without asking Apple.
            let verified = try gateway.deployment.request("/v1/verify", method: "POST", body: sent)
            #expect(verified.status == 200, "\(verified.text)")
            #expect(verified.entitlementProducts == [SampleContent.issueId])
            #expect(try Self.historyPaths(gateway).isEmpty)
            let restored = try gateway.deployment.request("/v1/restore-sync", method: "POST", body: sent)
            #expect(restored.status == 200, "\(restored.text)")
            #expect(restored.entitlementProducts == [SampleContent.monthlyId])
            #expect(try Self.historyPaths(gateway).last == "/sandbox/inApps/v2/history/\(issue)")
            #expect(try gateway.ledgerCounts().transactions == 2)
        }
    }
}
