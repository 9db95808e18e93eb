import Foundation
import Testing

extension EndToEnd {
    /// `storegate lookup` as support uses it: a purchase made, downloaded and refunded, found by its order id
    /// (Apple's Look Up Order ID on the stand-in) and by a transaction id, with the ledger's timeline.
    @Suite struct SupportLookup {
        static func lookUp(_ gateway: VerifyDeployment, _ arguments: [String]) throws -> CommandLine.Outcome {
            let setup = gateway.deployment.setup
            return try CommandLine.run(
                ["lookup", "--config", gateway.deployment.configFile.path] + arguments, binary: setup.binary,
                environment: setup.environment)
        }

        /// A Sandbox purchase of the issue, verified by its id, downloaded, then refunded by a notification;
        /// its transaction id and order id.
        static func purchasedDownloadedAndRefunded(_ gateway: VerifyDeployment) throws -> (id: String, order: String) {
            let id = ServerAPIRoutes.id()
            let order = "MQ5\(id.suffix(6))"
            var purchase = ServerAPIRoutes.purchase(SampleContent.issueId, id, customer: "mail", environment: "Sandbox")
            purchase["order_id"] = order
            try gateway.appStore.addAPI([purchase])
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: ServerAPIRoutes.body(id))
            let token = try #require(verified.downloadToken(for: SampleContent.issueId), "\(verified.text)")
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 200)
            let refund = try SignedTransactions.signed(SampleContent.issueId, id, revoked: true)
            #expect(try Notifications.post("REFUND", transaction: refund, to: gateway).status == 200)
            return (id, order)
        }

        @Test func anOrderIdOrATransactionIdTellsThePurchasesWholeStory() throws {
            let gateway = try ServerAPIRoutes.gateway()
            defer { gateway.stop() }
            let (id, order) = try Self.purchasedDownloadedAndRefunded(gateway)

            let text = try Self.lookUp(gateway, ["--transaction-id", id])
            #expect(text.status == 0, "\(text.errors)")
            #expect(
                text.output.contains("app-store · Sandbox · purchase \(id) · \(SampleContent.issueId)"),
                "\(text.output)")
            for event in ["bought", "recorded", "downloaded", "notified", "refunded"] {
                #expect(text.output.contains("  \(event) "), "no \(event) in:\n\(text.output)")
            }
            #expect(text.output.contains("by verify"))
            #expect(text.output.contains("Apple now (Sandbox): 1 transaction(s)"))

            let json = try Self.lookUp(gateway, ["--order-id", order, "--json"])
            #expect(json.status == 0, "\(json.errors)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], "\(json.output)")
            let purchases = try #require(object["purchases"] as? [[String: Any]])
            #expect(purchases.map { $0["original_transaction_id"] as? String } == [id])
            #expect(purchases.map { $0["store"] as? String } == ["app-store"])
            let events = (purchases.first?["timeline"] as? [[String: Any]])?.compactMap { $0["event"] as? String }
            #expect(events?.contains("downloaded") == true)
            #expect(events?.last == "refunded" || events?.contains("refunded") == true)
            let apple = try #require(object["apple"] as? [String: Any])
            #expect((apple["transactions"] as? [[String: Any]])?.first?["transaction_id"] as? String == id)

            let unknown = try Self.lookUp(gateway, ["--order-id", "NOSUCHORDER"])
            #expect(unknown.status == 0)
            #expect(unknown.output.contains("The ledger holds no purchase for it."))
            // Apple's answer in words, never a status or an error code.
            #expect(unknown.output.contains("Apple knows no order with this id."), "\(unknown.output)")
            #expect(!unknown.output.contains("transaction_not_found") && !unknown.output.contains("422"))
            let neither = try Self.lookUp(gateway, [])
            #expect(neither.status == 2)
        }
    }
}
