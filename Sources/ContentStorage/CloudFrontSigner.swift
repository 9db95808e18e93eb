import Crypto
import CryptoExtras
import Foundation

/// CloudFront signed URLs with a canned policy: the distribution serves the URL until `Expires`, checking the
/// RSA-SHA1 signature (the only algorithm CloudFront accepts for URLs signed with a key pair) with the public
/// key of the key group. What botocore's `CloudFrontSigner` makes for the same inputs, byte for byte.
package struct CloudFrontSigner: Sendable, CustomReflectable {
    /// The distribution's URL the objects' paths follow, ending in `/`.
    private let base: String
    private let keyPairId: String
    private let privateKey: _RSA.Signing.PrivateKey

    /// Nothing: it holds the private key.
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    /// Why a private key was refused.
    package struct KeyProblem: Error, Sendable {
        package let message: String
    }

    /// A signer for URLs under `base` (`https://d111111abcdef8.cloudfront.net/content/`) with the key pair
    /// `keyPairId`, whose private key is `pem` (PKCS#1 or PKCS#8).
    package init(base: String, keyPairId: String, pem: String) throws(KeyProblem) {
        do {
            privateKey = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw KeyProblem(message: "is not an RSA private key in PEM (2048 bits or more)")
        }
        self.base = base.hasSuffix("/") ? base : base + "/"
        self.keyPairId = keyPairId
    }

    /// The URL of the object `key` under the distribution, signed to be served until `expiresAt`.
    package func url(key: String, expiresAt: Date) throws -> String {
        let resource = base + SigV4.encode(key, keepSlash: true)
        let epoch = Int(expiresAt.timeIntervalSince1970.rounded(.down))
        let policy =
            #"{"Statement":[{"Resource":"\#(resource)","Condition":{"DateLessThan":{"AWS:EpochTime":\#(epoch)}}}]}"#
        let signature = try privateKey.signature(
            for: Insecure.SHA1.hash(data: Data(policy.utf8)), padding: .insecurePKCS1v1_5)
        let encoded = String(
            signature.rawRepresentation.base64EncodedString().map {
                switch $0 {
                case "+": "-"
                case "=": "_"
                case "/": "~"
                default: $0
                }
            })
        return "\(resource)?Expires=\(epoch)&Signature=\(encoded)&Key-Pair-Id=\(keyPairId)"
    }
}
