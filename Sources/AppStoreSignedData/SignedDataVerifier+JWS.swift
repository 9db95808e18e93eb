import Crypto
import Foundation
import Synchronization
import X509

extension SignedDataVerifier {
    /// Verifies `jws` and returns its payload, or throws why it cannot be trusted.
    public func verify(_ jws: String) async throws(SignedDataError) -> SignedPayload {
        let token = try CompactJWS(jws)
        let claims = try Claims(token.payload)
        let key = try await signingKey(of: token, claims: claims)
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: token.signature),
            key.isValidSignature(signature, for: token.signingInput)
        else { throw .badSignature("the signature does not match the leaf certificate") }
        let environment = try checkClaims(bundleId: claims.bundleId, environment: claims.environment)
        return SignedPayload(
            environment: environment, bundleId: claims.bundleId, appAppleId: claims.appAppleId,
            signedDate: claims.signedDate, json: token.payloadBytes)
    }

    /// The key the header's leaf certificate holds, once the header is ES256 and its chain is trusted at the
    /// payload's date: from the headers already verified when this one is among them, else read and checked.
    private func signingKey(of token: CompactJWS, claims: Claims) async throws(SignedDataError)
        -> P256.Signing.PublicKey
    {
        let xcode = claims.environment == "Xcode"
        if xcode, !environments.contains("Xcode") { throw .environmentNotAccepted("Xcode") }
        let digest = SHA256.hash(data: token.headerSegment)
        if let known = knownSigners.withLock({ $0[digest] }), known.vouches(at: claims.signedDate, xcode: xcode) {
            return known.key
        }
        let (algorithm, chainBytes) = try token.header()
        guard algorithm == "ES256" else { throw .malformed("alg is \(algorithm), not ES256") }
        let chain = try Self.certificates(chainBytes)
        var span: ClosedRange<Date>?
        if xcode {
            guard chain.count == 1 else { throw .malformed("Xcode data carries one certificate") }
        } else {
            guard chain.count == 3 else { throw .malformed("x5c holds \(chain.count) certificates, not 3") }
            span = try await verifyChain(
                leaf: chain[0], intermediates: [chain[1]], cacheKey: SHA256.hash(data: chainBytes.reduce(Data(), +)),
                at: claims.signedDate)
        }
        guard let key = P256.Signing.PublicKey(chain[0].publicKey) else {
            throw .badSignature("the leaf certificate has no P-256 key")
        }
        knownSigners.withLock { signers in
            if signers.count >= Self.cachedChainLimit { signers.removeAll() }
            signers[digest] = JWSSigner(key: key, chainSpan: span)
        }
        return key
    }
}

/// A JWS header already verified: the leaf's key and, for App Store data, the span in which its whole chain
/// is valid (nil for Xcode's self-signed certificate, which vouches only for Xcode data).
struct JWSSigner: Sendable {
    let key: P256.Signing.PublicKey
    let chainSpan: ClosedRange<Date>?

    func vouches(at date: Date, xcode: Bool) -> Bool {
        guard let chainSpan else { return xcode }
        return !xcode && chainSpan.contains(date)
    }
}

/// The claims every kind of signed data carries: at the top, or (notifications) in the part that holds the
/// notification's facts, looked for in Apple's order: `data`, `summary` (a renewal extension's summary),
/// `externalPurchaseToken` (whose environment is Sandbox when its id starts with `SANDBOX`, else Production),
/// `appData` (a rescinded consent).
struct Claims {
    let environment: String?
    let bundleId: String?
    let appAppleId: Int64?
    /// When it was signed; some notifications carry no date, and are checked now.
    let signedDate: Date

    init(_ payload: [String: Any]) throws(SignedDataError) {
        let facts = Self.facts(of: payload)
        // An AppTransaction names its environment `receiptType`, and its app at the top.
        let environment = payload["environment"] ?? payload["receiptType"] ?? facts["environment"]
        let bundleId = payload["bundleId"] ?? facts["bundleId"]
        let appAppleId = payload["appAppleId"] ?? facts["appAppleId"]
        let signedDate = payload["signedDate"]
        guard environment == nil || environment is String, bundleId == nil || bundleId is String,
            appAppleId == nil || appAppleId is NSNumber, signedDate == nil || signedDate is NSNumber
        else { throw .malformed("environment, bundleId, appAppleId or signedDate has the wrong type") }
        self.environment = environment as? String
        self.bundleId = bundleId as? String
        self.appAppleId = (appAppleId as? NSNumber)?.int64Value
        self.signedDate = (signedDate as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue / 1000) } ?? Date()
    }

    /// The part of a notification that names its app and environment; empty for other kinds of data.
    private static func facts(of payload: [String: Any]) -> [String: Any] {
        for key in ["data", "summary"] {
            if let facts = payload[key] as? [String: Any] { return facts }
        }
        if var token = payload["externalPurchaseToken"] as? [String: Any] {
            let sandbox = (token["externalPurchaseId"] as? String)?.hasPrefix("SANDBOX") == true
            token["environment"] = sandbox ? "Sandbox" : "Production"
            return token
        }
        return payload["appData"] as? [String: Any] ?? [:]
    }
}
