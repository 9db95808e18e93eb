import struct Foundation.Date

/// Proof that the receipt-verification middleware checked the caller's right to one product.
///
/// Its initialiser is internal to this module: only ``ReceiptVerificationMiddleware`` makes one, so a
/// ``ContentHandler`` cannot be reached without verification.
public struct VerifiedEntitlement: Sendable, Equatable {
    public let productId: String
    /// The purchase the right comes from (stable across restores).
    public let originalTransactionId: String
    /// `Production`, `Sandbox` or `Xcode`.
    public let environment: String
    /// End of the subscription period, or nil for purchases that do not expire.
    public let expiresAt: Date?

    init(grant: EntitlementGrant) {
        productId = grant.productId
        originalTransactionId = grant.originalTransactionId
        environment = grant.environment
        expiresAt = grant.expiresAt
    }
}
