import ByteCoding
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

    /// HMACs already keyed with the current secret, then the previous ones: keying costs as much as the
    /// MAC itself, so each token copies a keyed state instead.
    private let current: HMAC<SHA256>
    private let previous: [HMAC<SHA256>]
    public let ttl: TimeInterval

    public init(secret: String, previousSecrets: [String] = [], ttl: TimeInterval) {
        current = HMAC(key: SymmetricKey(data: Array(secret.utf8)))
        previous = previousSecrets.map { HMAC(key: SymmetricKey(data: Array($0.utf8))) }
        self.ttl = ttl
    }

    private static func code(_ keyed: HMAC<SHA256>, for claims: some DataProtocol) -> HashedAuthenticationCode<SHA256> {
        var mac = keyed
        mac.update(data: claims)
        return mac.finalize()
    }

    /// A token for `productId` through `originalTransactionId`, valid for `ttl` from `now`.
    public func issue(productId: String, originalTransactionId: String, environment: String, now: Date = Date())
        -> Issued
    {
        let expires = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + ttl).rounded(.down))
        let claims = "1|\(Int64(expires.timeIntervalSince1970))|\(environment)|\(originalTransactionId)|\(productId)"
        let claimBytes = Array(claims.utf8)
        let mac = Self.code(current, for: claimBytes)
        return Issued(
            token: Base64URL.encode(claimBytes) + "." + mac.withUnsafeBytes { Base64URL.encode($0) }, expires: expires)
    }

    /// The claims of a genuine, unexpired token; nil for anything else.
    public func verify(_ token: String, now: Date = Date()) -> Claims? {
        let text = token.utf8
        guard text.count <= 1024, let dot = text.firstIndex(of: UInt8(ascii: ".")),
            let claims = Base64URL.decode(text[..<dot]), let mac = Base64URL.decode(text[text.index(after: dot)...])
        else { return nil }
        // Compared in constant time (swift-crypto's MAC equality).
        func signed(with keyed: HMAC<SHA256>) -> Bool { Self.code(keyed, for: claims) == mac }
        guard signed(with: current) || previous.contains(where: signed) else { return nil }
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
}
