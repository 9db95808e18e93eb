import AppStoreSignedData
import CoreFoundation
import Foundation
import SignedTestData

/// Verification CPU per core, with no request around it: one thread verifies the same kind of signed data
/// again and again for a while, and the figure is verifications per CPU second of the process (the work is
/// awaited one at a time, so that is one core's rate). What each kind costs is what the gateway does for it:
/// - a StoreKit 2 signed transaction: parse the JWS, the chain (cached after the first), one ECDSA check;
/// - an App Server Notification V2: its signed payload and the signed transaction inside it, both verified;
/// - a local app receipt: Apple's real 2020 sandbox receipt (PKCS#7, RSA with SHA-1, 9 in-app records),
///   its signature, its chain at its creation date and every field read.
@main
enum VerificationCPU {
    static func main() async throws {
        let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 3
        let signedData = try SignedDataVerifier(
            rootCertificates: [try SignedVectors.testRoot], bundleIds: ["com.example"], environments: ["Sandbox"])
        let receipts = try SignedDataVerifier(
            rootCertificates: [try SignedVectors.data("RevenueCat-purchases-ios/AppleRootCA.der")],
            bundleIds: ["com.revenuecat.sampleapp"], environments: ["Sandbox"])
        let transaction = try SignedVectors.mint(SignedVectors.transaction())
        let notification = try SignedVectors.mint([
            "notificationType": "REFUND", "notificationUUID": "0b9d2f4e-5c4a-4d7e-9a51-1f3c6b7e2a10",
            "signedDate": 1_761_962_975_000,
            "data": [
                "bundleId": "com.example", "environment": "Sandbox", "signedTransactionInfo": transaction,
            ] as [String: Any],
        ])
        let receipt = try Data(
            base64Encoded: SignedVectors.text("RevenueCat-purchases-ios/base64encoded_sandboxReceipt.txt"))!

        let title = "verification, one core (\(seconds) s each)"
        print("| \(title.padding(toLength: 51, withPad: " ", startingAt: 0)) | per second per core |")
        print("|-----------------------------------------------------|--------------------:|")
        try await report("StoreKit 2 signed transaction (JWS, chain cached)", seconds) {
            _ = try await signedData.verify(transaction)
        }
        try await report("App Store Server Notification V2 (two JWS)", seconds) {
            let outer = try await signedData.verify(notification)
            let fields = try JSONSerialization.jsonObject(with: outer.json) as? [String: Any]
            guard let inner = (fields?["data"] as? [String: Any])?["signedTransactionInfo"] as? String else {
                throw SignedDataError.malformed("the notification carries no signedTransactionInfo")
            }
            _ = try await signedData.verify(inner)
        }
        try await report("app receipt, 9 transactions (PKCS#7, local)", seconds) {
            _ = try await receipts.verify(receipt: receipt)
        }
    }

    /// Runs `work` once to warm caches, then for `seconds` of wall time, and prints its rate per CPU second.
    private static func report(_ name: String, _ seconds: Double, _ work: @Sendable () async throws -> Void)
        async throws
    {
        try await work()
        let startCPU = cpuSeconds()
        let deadline = Date().addingTimeInterval(seconds)
        var count = 0
        while Date() < deadline {
            for _ in 0..<50 { try await work() }
            count += 50
        }
        let rate = Double(count) / (cpuSeconds() - startCPU)
        print("| \(name.padding(toLength: 51, withPad: " ", startingAt: 0)) | \(String(format: "%19.0f", rate)) |")
    }

    private static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
