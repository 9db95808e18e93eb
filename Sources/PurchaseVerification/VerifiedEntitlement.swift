import Foundation
import GatewayCore

/// Proof that the verification service checked the caller's right to one product.
///
/// Its initialiser is internal to this module: only a ``ContentRoute`` makes one, after the service checked
/// the request's credential, so a ``ContentHandler`` cannot be reached without verification.
public struct VerifiedEntitlement: Sendable {
    public let productId: String
    /// The purchase the right comes from (stable across restores).
    public let originalTransactionId: String
    /// `Production`, `Sandbox` or `Xcode`.
    public let environment: String
    /// End of the subscription period, or nil for purchases that do not expire.
    public let expiresAt: Date?
    private let service: VerificationService

    init(grant: EntitlementGrant, service: VerificationService) {
        productId = grant.productId
        originalTransactionId = grant.originalTransactionId
        environment = grant.environment
        expiresAt = grant.expiresAt
        self.service = service
    }

    /// Records that content with `contentSHA256` is handed over for this entitlement. Call it before any
    /// byte goes out: without a record there is no download (503 `ledger_unavailable`, retryable).
    public func recordDelivery(contentSHA256: String, context: RequestContext) throws(GatewayError) {
        try service.recordDelivery(of: self, contentSHA256: contentSHA256, context: context)
    }
}
