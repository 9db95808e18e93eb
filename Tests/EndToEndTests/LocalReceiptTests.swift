import Foundation
import PurchaseLedger
import SignedTestData
import Testing

extension EndToEnd {
    /// `apple.verifier: local` and `local-then-online` through nginx, with a real Apple-signed sandbox receipt.
    @Suite struct LocalReceipts {
        static let bundleId = "com.revenuecat.sampleapp"

        static func gateway(_ mode: String, environments: String = "[Production, Sandbox]") throws -> VerifyDeployment {
            let root = SignedVectors.folder.appendingPathComponent("RevenueCat-purchases-ios/AppleRootCA.der").path
            return try VerifyDeployment(apple: [
                "verifier": mode, "root_certificates": "[\"\(root)\"]", "environments": environments,
                "bundle_ids": "[\(bundleId), \(SampleContent.bundleId)]",
                "app_apple_id": String(SampleContent.appAppleId),
            ])
        }

        static var realReceipt: String {
            get throws { try SignedVectors.text("RevenueCat-purchases-ios/base64encoded_sandboxReceipt.txt") }
        }

        static func body(_ receipt: String) -> [UInt8] { Array("{\"receipt-data\":\"\(receipt)\"}".utf8) }

        @Test func aRealReceiptIsVerifiedHereAndRecordedWithoutAskingApple() throws {
            let gateway = try Self.gateway("local")
            defer { gateway.stop() }
            let answer = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: Self.body(try Self.realReceipt))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["environment"] as? String == "Sandbox")
            #expect(answer.json["bundle_id"] as? String == Self.bundleId)
            #expect(answer.transactions.count == 9)
            #expect(try gateway.ledgerCounts() == .init(purchases: 9, transactions: 9))
            let again = try gateway.deployment.request(
                "/v1/restore-sync", method: "POST", body: Self.body(try Self.realReceipt))
            #expect(again.json["known"] as? Int == 9)
            // Only local verification: a receipt the stand-in knows is not a PKCS#7 receipt here.
            let standIn = try gateway.receipt(transactions: [Receipt.transaction(SampleContent.issueId, "810001")])
            let refused = try gateway.verify(standIn)
            #expect(refused.status == 400, "\(refused.text)")
            #expect(try gateway.appStore.calls(standIn).isEmpty)
        }

        @Test func localThenOnlineAsksAppleOnlyForWhatItCannotCheck() throws {
            let gateway = try Self.gateway("local-then-online")
            defer { gateway.stop() }
            let local = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: Self.body(try Self.realReceipt))
            #expect(local.status == 200)
            let standIn = try gateway.receipt(transactions: [Receipt.transaction(SampleContent.issueId, "820001")])
            let online = try gateway.verify(standIn)
            #expect(online.status == 200, "\(online.text)")
            #expect(try gateway.appStore.calls(standIn)["Production"] == 1)
            // Asking Apple is the expected path here: nothing about it at info, and no library's source path.
            // (nginx's own "Connection refused" while the gateway starts is not the gateway's refusal.)
            let logs = try gateway.logs(through: online)
            #expect(!logs.contains("receipt not checked here") && !logs.contains("receipt refused here"), "\(logs)")
            #expect(!logs.contains(".swift:"), "\(logs)")
        }

        @Test func aGenuineReceiptForAnEnvironmentNotAcceptedIsRefusedWithoutApple() throws {
            let gateway = try Self.gateway("local-then-online", environments: "[Production]")
            defer { gateway.stop() }
            let answer = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: Self.body(try Self.realReceipt))
            #expect(answer.status == 422)
            #expect(answer.errorCode == "sandbox_not_accepted", "\(answer.text)")
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
        }
    }
}
