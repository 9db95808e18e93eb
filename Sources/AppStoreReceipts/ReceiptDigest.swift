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
        bytes.prefix(6).map { byte in byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
    }
}
