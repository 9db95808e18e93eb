import CryptoExtras
import Foundation

/// A service account for tests: a fresh 2048-bit key, and the JSON key file Google Cloud would hand out for it.
public struct GoogleTestAccount {
    public static let email = "storegate@example-project.iam.gserviceaccount.com"
    public static let keyId = "9f1c2a7e5b3d4c6a8e0f1b2c3d4e5f6a7b8c9d0e"

    public let key: _RSA.Signing.PrivateKey

    /// The public key, as the stand-in is given it.
    public var publicKeyPEM: String { key.publicKey.pemRepresentation }

    public init() throws {
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
    }

    /// The key file's text, in Google's shape.
    public func json(tokenURI: String = "https://oauth2.googleapis.com/token") throws -> String {
        let fields: [String: String] = [
            "type": "service_account", "project_id": "example-project", "private_key_id": Self.keyId,
            "private_key": key.pkcs8PEMRepresentation, "client_email": Self.email, "client_id": "1234567890",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": tokenURI,
        ]
        return String(
            decoding: try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), as: UTF8.self)
    }
}
