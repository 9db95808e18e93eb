import Foundation
import X509

extension SignedDataVerifier {
    /// Verifies an app receipt here, without Apple: the PKCS#7 signature (RSA with SHA-1 on older receipts,
    /// SHA-256 since 2025) and its certificate chain to one of the roots at the receipt's creation date (Apple's
    /// chain with its OIDs; an Xcode StoreKit-testing receipt chains to the StoreKit certificate an operator
    /// adds as a root, and needs `Xcode` in the environments), then the bundle id and the environment.
    public func verify(receipt: Data) async throws(SignedDataError) -> AppReceipt {
        let signedData = try AppReceipt.signedData(receipt)
        let parsed = try AppReceipt(content: signedData.content)
        let xcode = parsed.receiptType == "Xcode"
        if xcode, !environments.contains("Xcode") { throw .environmentNotAccepted("Xcode") }
        let signer = try signedData.verifiedSigner()
        if xcode {
            // Xcode signs with the self-signed certificate of the developer's StoreKit configuration: pinned.
            guard roots.contains(signer), (signer.notValidBefore...signer.notValidAfter).contains(parsed.creationDate)
            else { throw .untrustedChain("the Xcode receipt is not signed by a configured StoreKit certificate") }
        } else {
            try await verifyChain(
                leaf: signer, intermediates: signedData.certificates.filter { $0 != signer },
                cacheKey: signedData.certificatesDigest, at: parsed.creationDate)
        }
        _ = try checkClaims(bundleId: parsed.bundleId, environment: parsed.environment)
        return parsed
    }
}
