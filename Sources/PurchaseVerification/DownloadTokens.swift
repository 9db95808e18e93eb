import Crypto
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

    private let key: SymmetricKey
    private let previousKeys: [SymmetricKey]
    public let ttl: TimeInterval

    public init(secret: String, previousSecrets: [String] = [], ttl: TimeInterval) {
        key = SymmetricKey(data: Array(secret.utf8))
        previousKeys = previousSecrets.map { SymmetricKey(data: Array($0.utf8)) }
        self.ttl = ttl
    }

    /// A token for `productId` through `originalTransactionId`, valid for `ttl` from `now`.
    public func issue(productId: String, originalTransactionId: String, environment: String, now: Date = Date())
        -> Issued
    {
        let expires = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + ttl).rounded(.down))
        let claims = "1|\(Int64(expires.timeIntervalSince1970))|\(environment)|\(originalTransactionId)|\(productId)"
        let mac = HMAC<SHA256>.authenticationCode(for: Array(claims.utf8), using: key)
        return Issued(token: Self.base64url(Array(claims.utf8)) + "." + Self.base64url(Array(mac)), expires: expires)
    }

    /// The claims of a genuine, unexpired token; nil for anything else.
    public func verify(_ token: String, now: Date = Date()) -> Claims? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 1024, parts.count == 2, let claims = Self.decode(parts[0]),
            let mac = Self.decode(parts[1])
        else { return nil }
        let genuine = ([key] + previousKeys).contains { key in
            HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: claims, using: key)
        }
        guard genuine else { return nil }
        let fields = String(decoding: claims, as: UTF8.self).split(separator: "|", maxSplits: 4)
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

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: Substring) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
