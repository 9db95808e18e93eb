import Crypto
import Foundation
import Synchronization
// Apple verifies at the signing date, which X509 offers only as SPI (as in Apple's own server library).
@_spi(FixedExpiryValidationTime) import X509

/// Verifies App Store signed data (StoreKit 2 transactions, renewal info, server notifications) as Apple
/// specifies: ES256 over the JWS signing input, by the leaf of an `x5c` chain of exactly three certificates
/// that ends at one of `rootCertificates`, with Apple's OIDs on intermediate and leaf, every certificate valid
/// at the payload's `signedDate`; then the `environment` and `bundleId` claims.
///
/// Verified chains are cached with the span in which all their certificates are valid, so verifying more data
/// signed by the same chain costs one ECDSA check. Xcode's StoreKit testing signs with one self-signed
/// certificate: such data is accepted only when `environments` lists `Xcode`, after its signature is checked
/// against that certificate (it proves nothing about a purchase; it is for development).
public final class SignedDataVerifier: Sendable {
    let roots: [Certificate]
    private let bundleIds: Set<String>
    let environments: Set<String>
    private let verifiedChains = Mutex<[SHA256Digest: ClosedRange<Date>]>([:])
    private static let cachedChainLimit = 64

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

    /// Verifies `jws` and returns its payload, or throws why it cannot be trusted.
    public func verify(_ jws: String) async throws(SignedDataError) -> SignedPayload {
        let token = try CompactJWS(jws)
        guard token.algorithm == "ES256" else { throw .malformed("alg is \(token.algorithm), not ES256") }
        let claims = try Claims(token.payload)
        let chain = try Self.certificates(token.certificateChain)
        if claims.environment == "Xcode" {
            guard environments.contains("Xcode") else { throw .environmentNotAccepted("Xcode") }
            guard chain.count == 1 else { throw .malformed("Xcode data carries one certificate") }
        } else {
            guard chain.count == 3 else { throw .malformed("x5c holds \(chain.count) certificates, not 3") }
            try await verifyChain(
                leaf: chain[0], intermediates: [chain[1]],
                cacheKey: SHA256.hash(data: token.certificateChain.reduce(Data(), +)), at: claims.signedDate)
        }
        try Self.verifySignature(token, leaf: chain[0])
        let environment = try checkClaims(bundleId: claims.bundleId, environment: claims.environment)
        return SignedPayload(
            environment: environment, bundleId: claims.bundleId, signedDate: claims.signedDate,
            json: token.payloadBytes)
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
    func verifyChain(leaf: Certificate, intermediates: [Certificate], cacheKey: SHA256Digest, at date: Date)
        async throws(SignedDataError)
    {
        if let span = verifiedChains.withLock({ $0[cacheKey] }), span.contains(date) { return }
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
        case .couldNotValidate(let failures):
            let reason = failures.first.map { "\($0.policyFailureReason)" } ?? "no chain to a configured root"
            throw .untrustedChain(reason)
        }
    }

    private static func verifySignature(_ token: CompactJWS, leaf: Certificate) throws(SignedDataError) {
        guard let key = P256.Signing.PublicKey(leaf.publicKey) else {
            throw .badSignature("the leaf certificate has no P-256 key")
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: token.signature),
            key.isValidSignature(signature, for: token.signingInput)
        else { throw .badSignature("the signature does not match the leaf certificate") }
    }

    private static func certificates(_ chain: [Data]) throws(SignedDataError) -> [Certificate] {
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

/// The claims every kind of signed data carries: at the top, or (notifications) in `data`.
private struct Claims {
    let environment: String?
    let bundleId: String?
    /// When it was signed; some notifications carry no date, and are checked now.
    let signedDate: Date

    init(_ payload: [String: Any]) throws(SignedDataError) {
        let data = payload["data"] as? [String: Any] ?? [:]
        let environment = payload["environment"] ?? data["environment"]
        let bundleId = payload["bundleId"] ?? data["bundleId"]
        let signedDate = payload["signedDate"]
        guard environment == nil || environment is String, bundleId == nil || bundleId is String,
            signedDate == nil || signedDate is NSNumber
        else { throw .malformed("environment, bundleId or signedDate has the wrong type") }
        self.environment = environment as? String
        self.bundleId = bundleId as? String
        self.signedDate = (signedDate as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue / 1000) } ?? Date()
    }
}
