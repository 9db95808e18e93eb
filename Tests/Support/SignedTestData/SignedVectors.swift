import Crypto
import Foundation
import SwiftASN1
import X509

/// The copied vectors, and JWS minted from the test chain's private key.
public enum SignedVectors {
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Vectors")

    public static func data(_ path: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(path)) }

    public static func text(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public static func swiftLibrary(_ name: String) throws -> String {
        try text("apple-app-store-server-library-swift/\(name)")
    }

    public static var testRoot: Data { get throws { try data("apple-app-store-server-library-swift/testCA.der") } }
    public static var appleRootG3: Data {
        get throws { try data("apple-app-store-server-library-swift/real_AppleRootCA-G3.der") }
    }

    /// DER of a PEM certificate of the Java library's test set.
    public static func javaCertificate(_ name: String) throws -> Data {
        let pem = try text("apple-app-store-server-library-java/\(name).pem")
        var serializer = DER.Serializer()
        try serializer.serialize(try Certificate(pemEncoded: pem))
        return Data(serializer.serializedBytes)
    }

    /// An ES256 JWS over `payload`, signed with the test leaf's key, carrying `chain` (leaf first) as x5c.
    public static func mint(_ payload: [String: Any], chain: [String] = ["testLeaf", "testIntermediate", "testCA"])
        throws
        -> String
    {
        let key = try P256.Signing.PrivateKey(
            pemRepresentation: try text("apple-app-store-server-library-java/testLeaf.key"))
        let header: [String: Any] = [
            "alg": "ES256", "x5c": try chain.map { try javaCertificate($0).base64EncodedString() },
        ]
        let input = [header, payload].map { base64URL(try! JSONSerialization.data(withJSONObject: $0)) }.joined(
            separator: ".")
        let signature = try key.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + base64URL(signature)
    }

    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A transaction payload signed now-ish (inside the test chain's validity).
    public static func transaction(bundleId: String = "com.example", environment: String = "Sandbox") -> [String: Any] {
        [
            "transactionId": "23456", "originalTransactionId": "12345", "productId": "com.example.product",
            "bundleId": bundleId, "environment": environment, "signedDate": 1_761_962_975_000,
            "purchaseDate": 1_761_962_000_000, "type": "Non-Consumable",
        ]
    }
}
