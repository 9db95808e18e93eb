import Foundation
import GatewayCore

/// An app receipt as the client sent it: the base64 text without whitespace (what a store is asked about)
/// and its bytes (what is checked locally), decoded once.
public struct AppReceiptCredential: Sendable, Equatable {
    public let base64: String
    public let bytes: Data
    /// The client's `exclude-old-transactions`.
    public let excludeOldTransactions: Bool

    /// The receipt without the line breaks and spaces some clients add; 400 unless it is base64.
    public init(base64 text: String, excludeOldTransactions: Bool = false) throws(GatewayError) {
        let compact = text.filter { !$0.isWhitespace }
        guard !compact.isEmpty, let bytes = Data(base64Encoded: compact) else {
            throw .badRequest("receipt-data must be the app receipt in base64.")
        }
        base64 = compact
        self.bytes = bytes
        self.excludeOldTransactions = excludeOldTransactions
    }
}
