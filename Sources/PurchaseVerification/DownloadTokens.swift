import Foundation

/// Short-lived download tokens (DESIGN.md 6): `base64url(claims) "." base64url(HMAC-SHA256(secret, claims))`
/// over product id, original transaction, environment and expiry. Checked in constant time against the
/// current secret and any previous ones (rotation), so every gateway sharing `tokens.secret` accepts them.
public struct DownloadTokens: Sendable {
    /// What a token proves.
    public struct Claims: Sendable, Equatable {
        public let productId: String
        public let originalTransactionId: String
        public let environment: String
        public let expires: Date
    }

    /// A token as verify and restore-sync hand it out.
    public struct Issued: Sendable, Equatable {
        public let token: String
        public let expires: Date
    }

    private let seal: HMACSeal
    public let ttl: TimeInterval

    public init(secret: String, previousSecrets: [String] = [], ttl: TimeInterval) {
        seal = HMACSeal(secret: secret, previousSecrets: previousSecrets)
        self.ttl = ttl
    }

    /// A token for `productId` through `originalTransactionId`, valid for `ttl` from `now`.
    public func issue(productId: String, originalTransactionId: String, environment: String, now: Date = Date())
        -> Issued
    {
        let expires = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + ttl).rounded(.down))
        let claims = "1|\(Int64(expires.timeIntervalSince1970))|\(environment)|\(originalTransactionId)|\(productId)"
        return Issued(token: seal.seal(claims), expires: expires)
    }

    /// The claims of a genuine, unexpired token; nil for anything else.
    public func verify(_ token: String, now: Date = Date()) -> Claims? {
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
