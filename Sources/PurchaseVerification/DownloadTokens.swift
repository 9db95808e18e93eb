import Foundation
import GatewayHandlerAPI

/// Short-lived download tokens (docs/ARCHITECTURE.md 8): `base64url(claims) "." base64url(HMAC-SHA256(secret, claims))`
/// over product id, original transaction, environment and expiry. Checked in constant time against the
/// current secret and any previous ones (rotation), so every gateway sharing `tokens.secret` accepts them.
package struct DownloadTokens: Sendable {
    /// What a token proves.
    package struct Claims: Sendable, Equatable {
        package let productId: String
        package let originalTransactionId: String
        package let environment: String
        package let expires: Date
    }

    private let seal: HMACSeal
    package let ttl: TimeInterval

    package init(secret: String, previousSecrets: [String] = [], ttl: TimeInterval) {
        seal = HMACSeal(secret: secret, previousSecrets: previousSecrets)
        self.ttl = ttl
    }

    /// A token for `productId` through `originalTransactionId`, valid for `ttl` from `now`.
    package func issue(productId: String, originalTransactionId: String, environment: String, now: Date = Date())
        -> DownloadToken
    {
        let expires = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + ttl).rounded(.down))
        let claims = "1|\(Int64(expires.timeIntervalSince1970))|\(environment)|\(originalTransactionId)|\(productId)"
        return DownloadToken(token: seal.seal(claims), expires: expires)
    }

    /// The claims of a genuine, unexpired token; nil for anything else.
    package func verify(_ token: String, now: Date = Date()) -> Claims? {
        guard let claims = seal.open(token) else { return nil }
        let fields = claims.split(separator: "|", maxSplits: 4)
        guard fields.count == 5, fields[0] == "1", let seconds = Int64(fields[1]) else { return nil }
        let expires = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard expires > now else { return nil }
        return Claims(
            productId: String(fields[4]),
            originalTransactionId: String(fields[3]),
            environment: String(fields[2]),
            expires: expires
        )
    }
}

extension DownloadTokens {
    /// The `tokens` section: nil when `tokens.secret` is unset (then no tokens are issued, and a content route
    /// says the secret is missing). Problems are reported at their key paths.
    package init?(section: ConfigReader) {
        guard let secret = section.string("secret"), !secret.isEmpty else { return nil }
        if secret.utf8.count < 16 {
            section.report("secret", "must be at least 16 characters (32 random bytes are best)")
        }
        self.init(
            secret: secret, previousSecrets: section.stringList("previous_secrets"),
            ttl: TimeInterval(section.int("ttl_s", default: 900, in: 10...86_400)))
    }
}
