import Foundation

/// A compact JWS split into its parts, nothing verified yet: the header's `alg` and `x5c`, the payload as a
/// JSON object, the signature, and the signing input the signature covers.
struct CompactJWS {
    /// App Store JWS are a few kilobytes; anything far larger is not one.
    static let maximumLength = 64 * 1024

    let algorithm: String
    /// DER certificates, leaf first.
    let certificateChain: [Data]
    let payload: [String: Any]
    /// The payload exactly as signed.
    let payloadBytes: Data
    let signature: Data
    let signingInput: Data

    init(_ text: String) throws(SignedDataError) {
        guard text.utf8.count <= Self.maximumLength else { throw .malformed("longer than 64 KiB") }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("a compact JWS has three parts, this has \(parts.count)") }
        guard let headerBytes = Self.base64URL(parts[0]), let payloadBytes = Self.base64URL(parts[1]),
            let signature = Self.base64URL(parts[2])
        else { throw .malformed("a part is not base64url") }
        let header = try Self.object(headerBytes, "header")
        guard let algorithm = header["alg"] as? String else { throw .malformed("the header has no alg") }
        let chain = header["x5c"] as? [Any] ?? []
        let certificates = chain.compactMap { ($0 as? String).flatMap { Data(base64Encoded: $0) } }
        guard !chain.isEmpty, certificates.count == chain.count else {
            throw .malformed("the header has no x5c certificate chain")
        }
        self.algorithm = algorithm
        certificateChain = certificates
        payload = try Self.object(payloadBytes, "payload")
        self.payloadBytes = payloadBytes
        self.signature = signature
        signingInput = Data("\(parts[0]).\(parts[1])".utf8)
    }

    private static func object(_ bytes: Data, _ part: String) throws(SignedDataError) -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any] else {
            throw .malformed("the \(part) is not a JSON object")
        }
        return object
    }

    /// Base64url without padding, as RFC 7515 writes it.
    static func base64URL(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
