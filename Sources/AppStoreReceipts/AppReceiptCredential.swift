import Foundation
import GatewayHandlerAPI

/// An app receipt as the client sent it: the base64 text without whitespace (what a store is asked about)
/// and its bytes (what is checked locally), decoded once.
package struct AppReceiptCredential: Sendable, Equatable {
    package let base64: String
    package let bytes: Data
    /// The client's `exclude-old-transactions`.
    package let excludeOldTransactions: Bool

    /// The receipt without the line breaks and spaces some clients add; 400 unless it is base64.
    package init(base64 text: String, excludeOldTransactions: Bool = false) throws(GatewayError) {
        let compact = Self.withoutWhitespace(text)
        guard !compact.isEmpty, let bytes = Data(base64Encoded: compact) else {
            throw .badRequest("receipt-data must be the app receipt in base64.")
        }
        base64 = compact
        self.bytes = bytes
        self.excludeOldTransactions = excludeOldTransactions
    }

    /// `text` without whitespace: byte by byte for ASCII (every receipt; a receipt is kilobytes, and
    /// walking it as `Character`s costs more than decoding it), by `Character` for anything else.
    private static func withoutWhitespace(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return text.filter { !$0.isWhitespace } }
        // ASCII whitespace as `Character.isWhitespace` has it: tab, line feed, vertical tab, form feed,
        // carriage return, space.
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        guard utf8.contains(where: isSpace) else { return text }
        return String(decoding: utf8.filter { !isSpace($0) }, as: UTF8.self)
    }
}
