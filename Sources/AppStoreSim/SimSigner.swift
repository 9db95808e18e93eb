import ByteCoding
import Crypto
import Foundation

/// Signs the stand-in's answers as Apple does: ES256 JWS whose `x5c` carries the leaf, intermediate and
/// root (a test chain that only test configs trust).
public struct SimSigner: Sendable {
    let key: P256.Signing.PrivateKey
    let chain: [String]

    /// A signer from the leaf's PEM private key and the chain's PEM certificates, leaf first.
    public init(keyPEM: String, certificatePEMs: [String]) throws {
        key = try P256.Signing.PrivateKey(pemRepresentation: keyPEM)
        chain = certificatePEMs.map(Self.base64DER)
    }

    /// The base64 between a PEM's BEGIN and END lines (OpenSSL's text dumps may come before them).
    static func base64DER(_ pem: String) -> String {
        let lines = pem.split(whereSeparator: \.isNewline)
        let body = lines.drop { !$0.hasPrefix("-----BEGIN") }.dropFirst().prefix { !$0.hasPrefix("-----END") }
        return body.joined()
    }

    /// The same chain with a key it does not certify: what a forger without Apple's key can make.
    public func forger() -> SimSigner { SimSigner(key: P256.Signing.PrivateKey(), chain: chain) }

    private init(key: P256.Signing.PrivateKey, chain: [String]) {
        self.key = key
        self.chain = chain
    }

    /// A compact JWS over `payload`.
    public func sign(_ payload: [String: Any]) -> String {
        let header: [String: Any] = ["alg": "ES256", "x5c": chain]
        let input = [header, payload].map { object in
            Base64URL.encode(
                Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()))
        }.joined(separator: ".")
        // Signing bytes in memory with a valid key cannot fail.
        let signature = try! key.signature(for: Array(input.utf8))
        return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }
}
