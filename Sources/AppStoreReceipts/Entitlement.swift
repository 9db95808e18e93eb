import Foundation

/// A product the buyer may have now, and the purchase that gives it.
public struct Entitlement: Sendable, Equatable {
    public let productId: String
    public let originalTransactionId: String
    /// The end of the current subscription period; nil for purchases that do not expire.
    public let expiresDate: Date?

    public init(productId: String, originalTransactionId: String, expiresDate: Date?) {
        self.productId = productId
        self.originalTransactionId = originalTransactionId
        self.expiresDate = expiresDate
    }
}
