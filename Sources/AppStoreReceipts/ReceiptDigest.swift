import Crypto

/// SHA-256 of what was asked of Apple (the receipt and `exclude-old-transactions`): the cache key, and the
/// only form of a receipt that may appear in logs.
struct ReceiptDigest: Hashable, Sendable, CustomStringConvertible {
    private let bytes: SHA256.Digest

    init(receiptData: String, excludeOldTransactions: Bool) {
        var hasher = SHA256()
        hasher.update(data: Array(receiptData.utf8))
        hasher.update(data: [excludeOldTransactions ? 1 : 0])
        bytes = hasher.finalize()
    }

    /// The first 12 hex digits: enough to find a receipt's log lines, useless for recovering it.
    var description: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 12) { text in
            for (index, byte) in bytes.prefix(6).enumerated() {
                text[2 * index] = digits[Int(byte >> 4)]
                text[2 * index + 1] = digits[Int(byte & 0xF)]
            }
            return 12
        }
    }
}
