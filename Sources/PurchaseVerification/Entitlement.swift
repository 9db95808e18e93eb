import Foundation

/// A product the buyer may have now, the purchase that gives it, and the download token issued for it.
public struct Entitlement: Sendable, Equatable {
    public let productId: String
    public let originalTransactionId: String
    /// The end of the current subscription period; nil for purchases that do not expire.
    public let expiresDate: Date?
    /// Set when tokens are configured and the product has content.
    public internal(set) var downloadToken: DownloadTokens.Issued?

    public init(productId: String, originalTransactionId: String, expiresDate: Date?) {
        self.productId = productId
        self.originalTransactionId = originalTransactionId
        self.expiresDate = expiresDate
    }
}
