import AppStoreSignedData
import Foundation
import SignedTestData
import Testing

/// Local app-receipt validation with real receipts: Apple-signed (sandbox, 2020) and Xcode's.
@Suite struct AppReceiptValidation {
    static func receipt(_ path: String) throws -> Data {
        try #require(Data(base64Encoded: try SignedVectors.text(path)))
    }

    static var sandboxReceipt: Data {
        get throws { try receipt("RevenueCat-purchases-ios/base64encoded_sandboxReceipt.txt") }
    }

    static func verifier(
        roots: [String] = ["RevenueCat-purchases-ios/AppleRootCA.der"], bundleId: String = "com.revenuecat.sampleapp",
        environments: Set<String> = ["Production", "Sandbox"]
    ) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            rootCertificates: try roots.map(SignedVectors.data), bundleIds: [bundleId], environments: environments)
    }

    private func refusal(_ receipt: Data, by verifier: SignedDataVerifier) async -> SignedDataError? {
        do {
            _ = try await verifier.verify(receipt: receipt)
            return nil
        } catch {
            return error
        }
    }

    @Test func aRealSandboxReceiptVerifiesAtItsCreationDate() async throws {
        let receipt = try await Self.verifier().verify(receipt: try Self.sandboxReceipt)
        #expect(receipt.bundleId == "com.revenuecat.sampleapp")
        #expect(receipt.environment == "Sandbox")
        #expect(receipt.appVersion == "4")
        #expect(receipt.creationDate == ISO8601DateFormatter().date(from: "2020-07-22T17:39:08Z"))
        #expect(receipt.inAppPurchases.count == 9)
        let first = try #require(receipt.inAppPurchases.first)
        #expect(first.productId == "com.revenuecat.monthly_4.99.1_week_intro")
        #expect(first.transactionId == "1000000692879214")
        #expect(first.originalTransactionId == "1000000692878476")
        #expect(first.webOrderLineItemId == "1000000054042695")
        #expect(first.expiresDate == ISO8601DateFormatter().date(from: "2020-07-14T19:41:40Z"))
        #expect(receipt.inAppPurchases.allSatisfy { $0.cancellationDate == nil && $0.quantity == 1 })
        let annual = receipt.inAppPurchases.filter { $0.productId == "com.revenuecat.annual_39.99.2_week_intro" }
        #expect(annual.first?.expiresDate == ISO8601DateFormatter().date(from: "2020-07-22T18:39:06Z"))
    }

    @Test func anotherAppOrEnvironmentOrRootIsRefused() async throws {
        let receipt = try Self.sandboxReceipt
        #expect(
            await refusal(receipt, by: try Self.verifier(bundleId: "com.other"))
                == .bundleMismatch("signed for com.revenuecat.sampleapp"))
        #expect(
            await refusal(receipt, by: try Self.verifier(environments: ["Production"]))
                == .environmentNotAccepted("Sandbox"))
        let g3Only = try Self.verifier(roots: ["apple-app-store-server-library-swift/real_AppleRootCA-G3.der"])
        #expect(await refusal(receipt, by: g3Only)?.description.hasPrefix("untrustedChain") == true)
    }

    @Test func anyChangedPayloadByteBreaksTheSignature() async throws {
        var bytes = Array(try Self.sandboxReceipt)
        // A byte inside the bundle id's UTF8String, well inside the signed content.
        let bundle = Array("com.revenuecat.sampleapp".utf8)
        let at = try #require(
            (0..<(bytes.count - bundle.count)).first { Array(bytes[$0..<$0 + bundle.count]) == bundle })
        bytes[at + 4] ^= 0x01
        let refused = await refusal(Data(bytes), by: try Self.verifier(bundleId: "com.rfvenuecat.sampleapp"))
        #expect(refused?.description.hasPrefix("badSignature") == true, "\(String(describing: refused))")
    }

    @Test func xcodeReceiptsNeedTheStoreKitCertificateAndXcode() async throws {
        let xcode = try Self.receipt("apple-app-store-server-library-swift/xcode-app-receipt-with-transaction")
        let bundle = "com.example.naturelab.backyardbirds.example"
        let appleOnly = try Self.verifier(bundleId: bundle, environments: ["Production", "Sandbox", "Xcode"])
        #expect(await refusal(xcode, by: appleOnly)?.description.hasPrefix("untrustedChain") == true)
        let storeKit = try Self.verifier(
            roots: ["derived/StoreKitTestCertificate.pem"], bundleId: bundle, environments: ["Xcode"])
        let receipt = try await storeKit.verify(receipt: xcode)
        #expect(receipt.environment == "Xcode")
        #expect(receipt.inAppPurchases.map(\.productId) == ["pass.premium"])
        #expect(receipt.inAppPurchases.first?.transactionId == "0")
        let empty = try await storeKit.verify(
            receipt: try Self.receipt("apple-app-store-server-library-swift/xcode-app-receipt-empty"))
        #expect(empty.inAppPurchases.isEmpty)
        let withoutXcode = try Self.verifier(roots: ["derived/StoreKitTestCertificate.pem"], bundleId: bundle)
        #expect(await refusal(xcode, by: withoutXcode) == .environmentNotAccepted("Xcode"))
    }

    @Test func garbageIsMalformedNeverACrash() async throws {
        let verifier = try Self.verifier()
        let receipt = Array(try Self.sandboxReceipt)
        for bytes in [
            [], [0x30], [0x30, 0x80], Array(receipt.prefix(100)), Array(receipt.prefix(receipt.count / 2)),
            Array(repeating: 0x30, count: 5_000), Array("not a receipt".utf8),
        ] {
            let refused = await refusal(Data(bytes), by: verifier)
            #expect(refused?.description.hasPrefix("malformed") == true, "\(String(describing: refused))")
            // In words: the ASN.1 library's own description ends with its source file and line.
            #expect(refused?.reason.contains(".swift") == false, "\(String(describing: refused))")
            #expect(refused?.reason.contains("ASN1Error") == false, "\(String(describing: refused))")
        }
    }
}
