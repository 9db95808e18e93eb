import Crypto

/// A purchase token's SHA-256, in lowercase hex: a name for a purchase that shows nothing of its token. Taken on
/// every Google request (the answer cache's key), so the hex is written from a table: `String(format:)` per byte
/// cost a cached verify a third of its throughput (Tests/Benchmarks/google-verify.sh).
enum TokenDigest {
    private static let digits = Array("0123456789abcdef".utf8)

    static func hex(_ token: String) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(token.utf8)) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
