import Foundation

/// What the service found for a content request: the caller holds this product through this purchase.
/// Internal: only the service makes one, and only the content responder turns it into a
/// ``VerifiedEntitlement``.
struct EntitlementGrant: Sendable, Equatable {
    let productId: String
    let originalTransactionId: String
    let environment: String
    let expiresAt: Date?
}
