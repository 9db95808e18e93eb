import struct Foundation.Date

/// What a verifier found: the caller holds this product through this purchase. Plain data; the middleware
/// checks it against the requested product before anything becomes a ``VerifiedEntitlement``.
public struct EntitlementGrant: Sendable, Equatable {
    public let productId: String
    public let originalTransactionId: String
    public let environment: String
    public let expiresAt: Date?

    public init(productId: String, originalTransactionId: String, environment: String, expiresAt: Date?) {
        self.productId = productId
        self.originalTransactionId = originalTransactionId
        self.environment = environment
        self.expiresAt = expiresAt
    }
}
