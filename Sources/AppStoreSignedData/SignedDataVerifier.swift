import Crypto
import Foundation
import SwiftASN1
import Synchronization
// Apple verifies at the signing date, which X509 offers only as SPI (as in Apple's own server library).
@_spi(FixedExpiryValidationTime) import X509

/// Verifies App Store signed data (StoreKit 2 transactions, renewal info, server notifications) as Apple
/// specifies: ES256 over the JWS signing input, by the leaf of an `x5c` chain of exactly three certificates
/// that ends at one of `rootCertificates`, with Apple's OIDs on intermediate and leaf, every certificate valid
/// at the payload's `signedDate`; then the `environment` and `bundleId` claims.
///
/// Verified chains are cached with the span in which all their certificates are valid, and a JWS header
/// (which carries the chain) with the leaf's key, so verifying more data signed by the same chain costs
/// reading the payload and one ECDSA check. Xcode's StoreKit testing signs with one self-signed
/// certificate: such data is accepted only when `environments` lists `Xcode`, after its signature is checked
/// against that certificate (it proves nothing about a purchase; it is for development).
public final class SignedDataVerifier: Sendable {
    let roots: [Certificate]
    private let bundleIds: Set<String>
    let environments: Set<String>
    private let verifiedChains = Mutex<[SHA256Digest: ClosedRange<Date>]>([:])
    /// JWS headers already verified, by the digest of their text: the signing key and the chain's span.
    let knownSigners = Mutex<[SHA256Digest: JWSSigner]>([:])
    static let cachedChainLimit = 64

    /// - Parameters:
    ///   - rootCertificates: certificates to trust (DER or PEM), such as Apple Root CA - G3.
    ///   - bundleIds: the apps whose data is accepted.
    ///   - environments: the environments accepted (`Production`, `Sandbox`, `Xcode`).
    public init(rootCertificates: [Data], bundleIds: Set<String>, environments: Set<String>) throws(SignedDataError) {
        var roots: [Certificate] = []
        for file in rootCertificates {
            let pem = String(decoding: file, as: UTF8.self)
            guard
                let root = pem.hasPrefix("-----BEGIN")
                    ? try? Certificate(pemEncoded: pem) : try? Certificate(derEncoded: Array(file))
            else { throw .untrustedChain("a configured root is not a DER or PEM certificate") }
            roots.append(root)
        }
        self.roots = roots
        self.bundleIds = bundleIds
        self.environments = environments
    }

    /// Apple's order: the app first, then the environment. Returns the accepted environment.
    func checkClaims(bundleId: String?, environment: String?) throws(SignedDataError) -> String {
        if let bundleId, !bundleIds.contains(bundleId) { throw .bundleMismatch("signed for \(bundleId)") }
        guard let environment, environments.contains(environment) else {
            throw .environmentNotAccepted(environment ?? "unlabelled")
        }
        return environment
    }

    /// Checks that `leaf` chains to a root through `intermediates` at `date`, with Apple's marks, remembering
    /// verified chains by `cacheKey` with the span they are valid in.
    @discardableResult
    func verifyChain(leaf: Certificate, intermediates: [Certificate], cacheKey: SHA256Digest, at date: Date)
        async throws(SignedDataError) -> ClosedRange<Date>
    {
        if let span = verifiedChains.withLock({ $0[cacheKey] }), span.contains(date) { return span }
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy(fixedExpiryValidationTime: date)
            AppleChainPolicy()
        }
        switch await verifier.validate(leaf: leaf, intermediates: CertificateStore(intermediates)) {
        case .validCertificate(let validated):
            let span = validated.map(\.notValidBefore).max()!...validated.map(\.notValidAfter).min()!
            verifiedChains.withLock { chains in
                if chains.count >= Self.cachedChainLimit { chains.removeAll() }
                chains[cacheKey] = span
            }
            return span
        case .couldNotValidate(let failures):
            let reason = failures.first.map { "\($0.policyFailureReason)" } ?? "no chain to a configured root"
            throw .untrustedChain(reason)
        }
    }

    static func certificates(_ chain: [Data]) throws(SignedDataError) -> [Certificate] {
        var certificates: [Certificate] = []
        for der in chain {
            guard let certificate = try? Certificate(derEncoded: Array(der)) else {
                throw .malformed("an x5c entry is not a DER certificate")
            }
            certificates.append(certificate)
        }
        return certificates
    }
}
