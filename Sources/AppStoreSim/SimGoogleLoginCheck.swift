import ByteCoding
import CryptoExtras
import Foundation

/// Checks a service account's login assertion as Google's token endpoint does, independently of the gateway's
/// JWT library: RS256 (PKCS#1 v1.5, SHA-256) against the account's public key, `iss` the account's
/// `client_email`, `scope` with androidpublisher, `aud` Google's token endpoint (whatever address the stand-in
/// has: Google's own client library sends that one wherever its `token_uri` points), not expired, living at most
/// an hour.
public struct SimGoogleLoginCheck: Sendable {
    public static let audience = "https://oauth2.googleapis.com/token"

    public var clientEmail: String
    public var publicKey: _RSA.Signing.PublicKey

    public init(clientEmail: String, publicKeyPEM: String) throws {
        self.clientEmail = clientEmail
        publicKey = try _RSA.Signing.PublicKey(pemRepresentation: publicKeyPEM)
    }

    /// Nil when the form `body` carries a grant Google would accept at `now`, else why not (in Google's words
    /// where it has them).
    public func refusal(form body: [UInt8], now: Date = Date()) -> String? {
        let fields = Dictionary(
            String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0) }
                return (
                    parts[0].removingPercentEncoding ?? "",
                    parts.count > 1 ? parts[1].removingPercentEncoding ?? "" : ""
                )
            }, uniquingKeysWith: { first, _ in first })
        guard fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" else {
            return "unsupported_grant_type"
        }
        let parts = (fields["assertion"] ?? "").split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(Array(parts[0].utf8)),
            let claimBytes = Base64URL.decode(Array(parts[1].utf8)),
            let signature = Base64URL.decode(Array(parts[2].utf8)),
            let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: Data(claimBytes)) as? [String: Any]
        else { return "invalid_grant: not a JWT" }
        guard header["alg"] as? String == "RS256" else { return "invalid_grant: alg is not RS256" }
        guard
            publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature),
                for: Array((parts[0] + "." + parts[1]).utf8), padding: .insecurePKCS1v1_5)
        else { return "invalid_grant: Invalid JWT Signature." }
        guard claims["iss"] as? String == clientEmail else { return "invalid_grant: wrong iss" }
        guard claims["aud"] as? String == Self.audience else { return "invalid_grant: wrong aud" }
        guard
            (claims["scope"] as? String)?.split(separator: " ").contains(
                "https://www.googleapis.com/auth/androidpublisher") == true
        else { return "invalid_scope" }
        guard let issued = (claims["iat"] as? NSNumber)?.doubleValue,
            let expires = (claims["exp"] as? NSNumber)?.doubleValue
        else { return "invalid_grant: no iat or exp" }
        let seconds = now.timeIntervalSince1970
        guard expires > seconds, issued <= seconds + 60, expires - issued <= 3600 else {
            return
                "invalid_grant: Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe."
        }
        return nil
    }
}
