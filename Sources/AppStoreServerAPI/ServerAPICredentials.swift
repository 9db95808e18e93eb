import Crypto
import Foundation
import GatewayConcurrency
import JWTKit

/// Who the gateway is to the App Store Server API: the team's in-app purchase key (`.p8`), its key id, the
/// issuer id and the app's bundle id. Its description names the key, never shows it.
package struct ServerAPICredentials: Sendable, CustomStringConvertible {
    package let issuerId: String
    package let keyId: String
    package let bundleId: String
    let key: P256.Signing.PrivateKey

    /// Reads the key from its PKCS#8 PEM text, as App Store Connect hands it out, and signs once with it, so a
    /// key that cannot sign is refused here, when the config is loaded, rather than on a customer's request.
    package init(issuerId: String, keyId: String, bundleId: String, keyPEM: String) throws(ServerAPIFailure) {
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: keyPEM) else {
            throw .misconfigured("the in-app purchase key is not a PKCS#8 PEM P-256 private key")
        }
        self.issuerId = issuerId
        self.keyId = keyId
        self.bundleId = bundleId
        self.key = key
        do {
            _ = try key.signature(for: Array("storegate: can this key sign?".utf8))
        } catch {
            throw .misconfigured("the in-app purchase key cannot sign: \(error)")
        }
    }

    package var description: String { "in-app purchase key \(keyId) of issuer \(issuerId) for \(bundleId)" }

    /// `claims` as an ES256 JWT under this key (header `kid`, `typ: JWT`), signed by jwt-kit, the project's one JWT
    /// library: the Server API's tokens and the app's signed offers. Fails only for a key that cannot sign, which
    /// ``init(issuerId:keyId:bundleId:keyPEM:)`` found out when the config was loaded.
    func signed(_ claims: some JWTPayload) throws(ServerAPIFailure) -> String {
        let key = key
        let kid = JWKIdentifier(string: keyId)
        do {
            return try AsyncBridge.wait { () async throws in
                let keys = JWTKeyCollection()
                await keys.add(ecdsa: try ES256PrivateKey(backing: key), kid: kid)
                return try await keys.sign(claims, kid: kid, header: ["typ": "JWT"])
            }
        } catch {
            throw .misconfigured("the in-app purchase key cannot sign: \(error)")
        }
    }
}
