import ByteCoding
import Crypto
import Foundation

/// `base64url(claims) "." base64url(HMAC-SHA256(secret, claims))`, checked in constant time against the
/// current secret and any previous ones (rotation), so every gateway sharing the secret accepts the same
/// texts. Download tokens and account assertions are both sealed this way.
struct HMACSeal: Sendable, CustomReflectable {
    /// HMACs already keyed with the current secret, then the previous ones: keying costs as much as the
    /// MAC itself, so each text copies a keyed state instead.
    private let current: HMAC<SHA256>
    private let previous: [HMAC<SHA256>]

    /// Nothing: a keyed state signs whatever it is given.
    var customMirror: Mirror { Mirror(self, children: [:]) }

    init(secret: String, previousSecrets: [String]) {
        current = HMAC(key: SymmetricKey(data: Array(secret.utf8)))
        previous = previousSecrets.map { HMAC(key: SymmetricKey(data: Array($0.utf8))) }
    }

    private static func code(_ keyed: HMAC<SHA256>, for claims: some DataProtocol) -> HashedAuthenticationCode<SHA256> {
        var mac = keyed
        mac.update(data: claims)
        return mac.finalize()
    }

    /// `claims` sealed with the current secret.
    func seal(_ claims: String) -> String {
        let claimBytes = Array(claims.utf8)
        let mac = Self.code(current, for: claimBytes)
        return Base64URL.encode(claimBytes) + "." + mac.withUnsafeBytes { Base64URL.encode($0) }
    }

    /// The claims of a text sealed with the current or a previous secret; nil for anything else.
    func open(_ sealed: String) -> String? {
        let text = sealed.utf8
        guard text.count <= 1024, let dot = text.firstIndex(of: UInt8(ascii: ".")),
            let claims = Base64URL.decode(text[..<dot]), let mac = Base64URL.decode(text[text.index(after: dot)...])
        else { return nil }
        // Compared in constant time (swift-crypto's MAC equality).
        func signed(with keyed: HMAC<SHA256>) -> Bool { Self.code(keyed, for: claims) == mac }
        guard signed(with: current) || previous.contains(where: signed) else { return nil }
        return String(decoding: claims, as: UTF8.self)
    }
}
