import Crypto
import Foundation

/// Who the gateway is to the App Store Server API: the team's in-app purchase key (`.p8`), its key id, the
/// issuer id and the app's bundle id. Its description names the key, never shows it.
package struct ServerAPICredentials: Sendable, CustomStringConvertible {
    package let issuerId: String
    package let keyId: String
    package let bundleId: String
    let key: P256.Signing.PrivateKey

    /// Reads the key from its PKCS#8 PEM text, as App Store Connect hands it out.
    package init(issuerId: String, keyId: String, bundleId: String, keyPEM: String) throws(ServerAPIFailure) {
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: keyPEM) else {
            throw .misconfigured("the in-app purchase key is not a PKCS#8 PEM P-256 private key")
        }
        self.issuerId = issuerId
        self.keyId = keyId
        self.bundleId = bundleId
        self.key = key
    }

    package var description: String { "in-app purchase key \(keyId) of issuer \(issuerId) for \(bundleId)" }
}
