import Crypto
import Foundation

/// A purchase token's SHA-256, in lowercase hex: a name for a purchase that shows nothing of its token.
enum TokenDigest {
    static func hex(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
