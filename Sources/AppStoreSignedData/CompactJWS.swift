import ByteCoding
import Foundation

/// A compact JWS split into its parts, nothing verified yet: the payload as a JSON object, the signature, the
/// signing input the signature covers, and the header as sent (read by ``header()`` only when it is not
/// already known: App Store data repeats one header, its certificate chain, across many payloads).
struct CompactJWS {
    /// App Store JWS are a few kilobytes; anything far larger is not one.
    static let maximumLength = 64 * 1024

    /// The header's base64url text, exactly as signed.
    let headerSegment: ArraySlice<UInt8>
    let payload: [String: Any]
    /// The payload exactly as signed.
    let payloadBytes: Data
    let signature: Data
    let signingInput: Data

    /// Splits and decodes on the UTF-8 bytes: a JWS is ASCII, and a few kilobytes of it read as `Character`s
    /// and rewritten with Foundation's string search cost more than the ECDSA check.
    init(_ text: String) throws(SignedDataError) {
        guard text.utf8.count <= Self.maximumLength else { throw .malformed("longer than 64 KiB") }
        let bytes = Array(text.utf8)
        let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
        guard dots.count == 2 else { throw .malformed("a compact JWS has three parts, this has \(dots.count + 1)") }
        guard let payloadBytes = Self.base64URL(bytes[(dots[0] + 1)..<dots[1]]),
            let signature = Self.base64URL(bytes[(dots[1] + 1)...])
        else { throw .malformed("a part is not base64url") }
        headerSegment = bytes[..<dots[0]]
        payload = try Self.object(payloadBytes, "payload")
        self.payloadBytes = payloadBytes
        self.signature = signature
        signingInput = Data(bytes[..<dots[1]])
    }

    /// The header's `alg` and its `x5c` DER certificates, leaf first.
    func header() throws(SignedDataError) -> (algorithm: String, certificateChain: [Data]) {
        guard let headerBytes = Self.base64URL(headerSegment) else { throw .malformed("a part is not base64url") }
        let header = try Self.object(headerBytes, "header")
        guard let algorithm = header["alg"] as? String else { throw .malformed("the header has no alg") }
        let chain = header["x5c"] as? [Any] ?? []
        let certificates = chain.compactMap { ($0 as? String).flatMap { Data(base64Encoded: $0) } }
        guard !chain.isEmpty, certificates.count == chain.count else {
            throw .malformed("the header has no x5c certificate chain")
        }
        return (algorithm, certificates)
    }

    private static func object(_ bytes: Data, _ part: String) throws(SignedDataError) -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any] else {
            throw .malformed("the \(part) is not a JSON object")
        }
        return object
    }

    private static func base64URL(_ text: ArraySlice<UInt8>) -> Data? { Base64URL.decode(text).map { Data($0) } }
}
