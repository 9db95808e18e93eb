import AppStoreSignedData
import Foundation
import SignedTestData
import Testing

@Suite struct SignedDataVerification {
    private func makeVerifier(roots: [Data]? = nil, environments: Set<String> = ["Sandbox"]) throws
        -> SignedDataVerifier
    {
        try SignedDataVerifier(
            rootCertificates: roots ?? [try SignedVectors.testRoot], bundleIds: ["com.example"],
            environments: environments)
    }

    private func refusal(_ jws: String, by verifier: SignedDataVerifier) async -> SignedDataError? {
        do {
            _ = try await verifier.verify(jws)
            return nil
        } catch {
            return error
        }
    }

    @Test func applesTestVectorsVerifyAgainstTheTestRoot() async throws {
        let verifier = try makeVerifier()
        let transaction = try await verifier.verify(try SignedVectors.swiftLibrary("transactionInfo"))
        #expect(transaction.environment == "Sandbox")
        #expect(transaction.bundleId == "com.example")
        #expect(transaction.signedDate == Date(timeIntervalSince1970: 1_672_956_154))
        let renewal = try await verifier.verify(try SignedVectors.swiftLibrary("renewalInfo"))
        #expect(renewal.bundleId == nil)
        let notification = try await verifier.verify(try SignedVectors.swiftLibrary("testNotification"))
        #expect(notification.bundleId == "com.example")
    }

    @Test func aRealAppleSignedJWSVerifiesAgainstAppleRootG3AtItsSigningDate() async throws {
        let verifier = try makeVerifier(roots: [try SignedVectors.appleRootG3])
        let renewal = try await verifier.verify(try SignedVectors.text("awa-go-iap/real_sandbox_renewal_info.jws"))
        #expect(renewal.environment == "Sandbox")
        #expect(
            String(decoding: renewal.json, as: UTF8.self).contains("\"originalTransactionId\":\"2000000335310644\""))
        // The same data is not trusted by a deployment that only trusts the test root.
        #expect(
            await refusal(try SignedVectors.text("awa-go-iap/real_sandbox_renewal_info.jws"), by: try makeVerifier())?
                .description.hasPrefix("untrustedChain") == true)
    }

    @Test func claimsForAnotherAppOrEnvironmentAreRefused() async throws {
        let wrongApp = await refusal(try SignedVectors.swiftLibrary("wrongBundleId"), by: try makeVerifier())
        #expect(wrongApp == .bundleMismatch("signed for com.example.wrong"))
        let production = await refusal(
            try SignedVectors.swiftLibrary("transactionInfo"), by: try makeVerifier(environments: ["Production"]))
        #expect(production == .environmentNotAccepted("Sandbox"))
    }

    @Test func malformedDataIsRefusedAsMalformed() async throws {
        let verifier = try makeVerifier()
        for jws in [
            try SignedVectors.swiftLibrary("missingX5CHeaderClaim"), "", "a.b", "a.b.c.d", "!!!.???.***",
            String(repeating: "A", count: 70_000),
        ] {
            #expect(await refusal(jws, by: verifier)?.description.hasPrefix("malformed") == true, "\(jws.prefix(40))")
        }
        let twoCertificates = try SignedVectors.mint(
            SignedVectors.transaction(), chain: ["testLeaf", "testIntermediate"])
        #expect(await refusal(twoCertificates, by: verifier) == .malformed("x5c holds 2 certificates, not 3"))
    }

    @Test func mintedDataVerifiesAndAnyChangedByteBreaksIt() async throws {
        let verifier = try makeVerifier()
        let jws = try SignedVectors.mint(SignedVectors.transaction())
        #expect(try await verifier.verify(jws).bundleId == "com.example")
        let parts = jws.split(separator: ".").map(String.init)
        let otherPayload = SignedVectors.base64URL(
            try JSONSerialization.data(
                withJSONObject: SignedVectors.transaction().merging(["productId": "free"]) { $1 }))
        let tampered = [parts[0], otherPayload, parts[2]].joined(separator: ".")
        #expect(await refusal(tampered, by: verifier)?.description.hasPrefix("badSignature") == true)
    }

    @Test(arguments: [
        (["testInvalidOIDLeaf", "testIntermediate", "testCA"], "leaf"),
        (["testInvalidIntermediateLeaf", "testInvalidOIDIntermediate", "testCA"], "intermediate"),
    ])
    func chainsWithoutApplesOIDsAreRefused(chain: [String], part: String) async throws {
        let refused = await refusal(
            try SignedVectors.mint(SignedVectors.transaction(), chain: chain), by: try makeVerifier())
        #expect(refused?.description.hasPrefix("untrustedChain") == true, "\(String(describing: refused))")
    }

    @Test func certificatesAreCheckedAtTheSigningDateEvenWhenTheChainIsCached() async throws {
        let verifier = try makeVerifier()
        _ = try await verifier.verify(try SignedVectors.mint(SignedVectors.transaction()))
        let afterExpiry = SignedVectors.transaction().merging(["signedDate": 2_280_946_846_000]) { $1 }
        let refused = await refusal(try SignedVectors.mint(afterExpiry), by: verifier)
        #expect(refused?.description.hasPrefix("untrustedChain") == true, "\(String(describing: refused))")
        let beforeIssue = SignedVectors.transaction().merging(["signedDate": 1_600_000_000_000]) { $1 }
        #expect(
            await refusal(try SignedVectors.mint(beforeIssue), by: verifier)?.description.hasPrefix("untrustedChain")
                == true)
    }

    @Test func xcodeDataNeedsXcodeInTheEnvironments() async throws {
        let xcode = try SignedVectors.swiftLibrary("xcode-signed-transaction")
        #expect(await refusal(xcode, by: try makeVerifier()) == .environmentNotAccepted("Xcode"))
        let accepting = try SignedDataVerifier(
            rootCertificates: [try SignedVectors.testRoot],
            bundleIds: ["com.example.naturelab.backyardbirds.example"], environments: ["Xcode"])
        #expect(try await accepting.verify(xcode).environment == "Xcode")
    }

    /// Headers already verified are remembered with what they vouch for: a one-certificate header trusted for
    /// Xcode data must not carry App Store data signed by the same key.
    @Test func aHeaderTrustedForXcodeDataDoesNotVouchForAppStoreData() async throws {
        let verifier = try makeVerifier(environments: ["Xcode", "Sandbox"])
        let xcode = SignedVectors.transaction(environment: "Xcode")
        #expect(try await verifier.verify(try SignedVectors.mint(xcode, chain: ["testLeaf"])).environment == "Xcode")
        let sandbox = try SignedVectors.mint(SignedVectors.transaction(), chain: ["testLeaf"])
        #expect(await refusal(sandbox, by: verifier) == .malformed("x5c holds 1 certificates, not 3"))
    }
}
