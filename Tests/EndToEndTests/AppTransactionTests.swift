import Crypto
import Foundation
import PurchaseLedger
import SignedTestData
import Testing

extension EndToEnd {
    /// App transactions (App Store Server API 1.17): the app's signed AppTransaction sent beside its purchases,
    /// Get App Transaction Info where it sends only a transaction id, and the customer's `appTransactionId` as a
    /// key support finds every purchase by.
    @Suite struct AppTransactions {
        /// An AppTransaction as StoreKit signs it, of the test app in `environment`.
        static func appTransaction(
            _ id: String, environment: String = "Sandbox", more: [String: Any] = [:]
        ) throws -> String {
            let now = Date().timeIntervalSince1970 * 1000
            var fields: [String: Any] = [
                "receiptType": environment, "bundleId": SampleContent.bundleId, "applicationVersion": "3",
                "versionExternalIdentifier": 0, "receiptCreationDate": now, "originalPurchaseDate": now - 86_400_000,
                "originalApplicationVersion": "1", "appTransactionId": id, "originalPlatform": "iOS",
                "signedDate": now,
            ]
            if environment == "Production" { fields["appAppleId"] = SampleContent.appAppleId }
            return try SignedVectors.mint(fields.merging(more) { $1 })
        }

        static func body(_ transactions: [String], app: String) -> [UInt8] {
            Array(
                (try? JSONSerialization.data(withJSONObject: [
                    "signed-transactions": transactions, "app-transaction": app,
                ]))
                    ?? Data())
        }

        @Test func theAppsAppTransactionNamesTheCustomerOfItsPurchasesForSupport() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let customer = "704000000000000123"
            let issue = try SignedTransactions.signed(SampleContent.issueId, "780001")
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: Self.body([issue], app: try Self.appTransaction(customer)))
            #expect(verified.status == 200, "\(verified.text)")
            let sent = (verified.json["transactions"] as? [[String: Any]])?.first
            #expect(sent?["app_transaction_id"] as? String == customer)
            // A later purchase signed since iOS 18.4 carries the app transaction itself.
            let monthly = try SignedTransactions.signed(
                SampleContent.monthlyId, "780002", type: "Auto-Renewable Subscription", expiresIn: 20,
                more: ["appTransactionId": customer])
            #expect(
                try gateway.deployment.request(
                    "/v1/verify", method: "POST", body: SignedTransactions.body([monthly])
                ).status == 200)

            let story = try SupportLookup.lookUp(gateway, ["--app-transaction-id", customer])
            #expect(story.status == 0, "\(story.output)")
            #expect(story.output.contains("780001") && story.output.contains("780002"), "\(story.output)")
            let page = try gateway.deployment.request("/v1/support?q=\(customer)")
            #expect(page.text.contains("780001") && page.text.contains("780002"), "\(page.text)")
        }

        @Test func anAppTransactionThatIsNotTheCustomersOrNotAnAppTransactionIsRefused() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let issue = try SignedTransactions.signed(
                SampleContent.issueId, "781001", more: ["appTransactionId": "704000000000000001"])
            let post = { (app: String) in
                try gateway.deployment.request("/v1/verify", method: "POST", body: Self.body([issue], app: app))
            }
            let another = try post(try Self.appTransaction("704000000000000002"))
            #expect(another.status == 400, "\(another.text)")
            #expect(another.text.contains("another customer's"), "\(another.text)")
            let otherApp = try post(try Self.appTransaction("704000000000000001", more: ["bundleId": "com.other.app"]))
            #expect(otherApp.errorCode == "bundle_mismatch", "\(otherApp.text)")
            let otherEnvironment = try post(try Self.appTransaction("704000000000000001", environment: "Production"))
            #expect(otherEnvironment.status == 400, "\(otherEnvironment.text)")
            let aTransaction = try post(issue)
            #expect(aTransaction.status == 400, "\(aTransaction.text)")
            #expect(aTransaction.text.contains("not an AppTransaction"), "\(aTransaction.text)")
            let forged = try post(String(try Self.appTransaction("704000000000000001").dropLast(4)) + "AAAA")
            #expect(forged.status == 422, "\(forged.text)")
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0), "nothing refused is recorded")
        }

        @Test func aBareTransactionIdGetsItsCustomersAppTransactionFromApple() throws {
            let gateway = try ServerAPIRoutes.gateway()
            defer { gateway.stop() }
            let (older, newer) = (ServerAPIRoutes.id(), ServerAPIRoutes.id())
            var signedSince = ServerAPIRoutes.purchase(SampleContent.issueId, newer, customer: "modern")
            signedSince["app_transaction_id"] = "704000000000000777"
            try gateway.appStore.addAPI([
                ServerAPIRoutes.purchase(SampleContent.issueId, older, customer: "longtime"), signedSince,
            ])
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: ServerAPIRoutes.body(older))
            #expect(verified.status == 200, "\(verified.text)")
            let appTransactionId = try #require(
                (verified.json["transactions"] as? [[String: Any]])?.first?["app_transaction_id"] as? String)
            let asked = try gateway.appStore.apiCalls().compactMap { $0["path"] as? String }
            #expect(asked.contains("/inApps/v1/transactions/appTransactions/\(older)"), "\(asked)")
            let story = try SupportLookup.lookUp(gateway, ["--app-transaction-id", appTransactionId])
            #expect(story.output.contains(older), "\(story.output)")

            // A transaction that carries its app transaction needs no call.
            let modern = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: ServerAPIRoutes.body(newer))
            #expect(
                (modern.json["transactions"] as? [[String: Any]])?.first?["app_transaction_id"] as? String
                    == "704000000000000777")
            let calls = try gateway.appStore.apiCalls().compactMap { $0["path"] as? String }
            #expect(!calls.contains("/inApps/v1/transactions/appTransactions/\(newer)"), "\(calls)")
        }
    }
}
