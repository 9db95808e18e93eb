import ByteCoding
import Crypto
import Foundation

/// Checks a bearer token as the App Store Server API does: ES256 over the header and claims with the key
/// `kid` names, `iss`, `aud: appstoreconnect-v1`, `bid`, not expired, and living at most an hour.
public struct SimJWTCheck: Sendable {
    public var issuerId: String
    public var keyId: String
    public var bundleId: String
    public var publicKey: P256.Signing.PublicKey

    public init(issuerId: String, keyId: String, bundleId: String, publicKeyPEM: String) throws {
        self.issuerId = issuerId
        self.keyId = keyId
        self.bundleId = bundleId
        publicKey = try P256.Signing.PublicKey(pemRepresentation: publicKeyPEM)
    }

    /// Nil when `authorization` carries a token Apple would accept at `now`, else why not.
    public func refusal(_ authorization: String?, now: Date = Date()) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let parts = authorization.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(Array(parts[0].utf8)),
            let claimBytes = Base64URL.decode(Array(parts[1].utf8)),
            let signatureBytes = Base64URL.decode(Array(parts[2].utf8)),
            let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: Data(claimBytes)) as? [String: Any]
        else { return "not a JWT" }
        guard header["alg"] as? String == "ES256", header["typ"] as? String == "JWT" else { return "alg or typ" }
        guard header["kid"] as? String == keyId else { return "unknown kid" }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8))
        else { return "bad signature" }
        guard claims["iss"] as? String == issuerId else { return "wrong iss" }
        guard claims["aud"] as? String == "appstoreconnect-v1" else { return "wrong aud" }
        guard claims["bid"] as? String == bundleId else { return "wrong bid" }
        guard let issued = (claims["iat"] as? NSNumber)?.doubleValue,
            let expires = (claims["exp"] as? NSNumber)?.doubleValue
        else { return "no iat or exp" }
        let seconds = now.timeIntervalSince1970
        guard expires > seconds, issued <= seconds + 60 else { return "expired or not yet valid" }
        guard expires - issued <= 3600 else { return "lives longer than an hour" }
        return nil
    }
}
