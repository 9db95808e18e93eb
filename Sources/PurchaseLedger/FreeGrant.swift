import struct Foundation.Date

/// A product given away by an operator (`storegate grant`): a press copy, a promo, a goodwill replacement.
/// Recorded as a purchase of its own (source `grant`, key `grant:<id>`, its id as original and transaction),
/// held by an app account or tied to a customer's purchase, until it expires or is revoked.
package struct FreeGrant: Sendable, Equatable {
    /// `grant-` and 16 hex digits; the grant's purchase and transaction carry it as their id.
    package let id: String
    package let environment: String
    package let productId: String
    /// The app account that holds the grant, for an account grant.
    package let accountId: String?
    /// The customer's purchase (original transaction) the grant goes with, for a customer grant.
    package let customerOriginalTransactionId: String?
    /// Why it was given, in the operator's words.
    package let reason: String
    /// Who gave it.
    package let grantedBy: String
    package let grantedAt: Date
    package let expiresAt: Date?
    package var revokedAt: Date?
    package var revokedBy: String?
    package var revokeReason: String?
    /// The command run (or request) that made it.
    package let requestId: String

    package init(
        id: String, environment: String, productId: String, accountId: String?,
        customerOriginalTransactionId: String?, reason: String, grantedBy: String, grantedAt: Date,
        expiresAt: Date?, revokedAt: Date? = nil, revokedBy: String? = nil, revokeReason: String? = nil,
        requestId: String
    ) {
        self.id = id
        self.environment = environment
        self.productId = productId
        self.accountId = accountId
        self.customerOriginalTransactionId = customerOriginalTransactionId
        self.reason = reason
        self.grantedBy = grantedBy
        self.grantedAt = grantedAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.revokedBy = revokedBy
        self.revokeReason = revokeReason
        self.requestId = requestId
    }

    /// Whether it entitles at `now`: not revoked, not expired.
    package func isActive(at now: Date) -> Bool { revokedAt == nil && (expiresAt ?? .distantFuture) > now }
}

/// Which free grants to read.
package enum FreeGrantSelection: Sendable, Equatable {
    /// The one with this id.
    case id(String)
    /// Those recorded under, or tied to, the purchase `originalTransactionId` of `environment`.
    case about(environment: String, originalTransactionId: String)
    /// Those not revoked and not expired at this moment.
    case active(at: Date)
    /// Every one, newest first.
    case all
}
