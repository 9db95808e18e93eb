import struct Foundation.Date

/// An app account's claim to one purchase (all of an original transaction), asserted by something the
/// operator trusts and settled by the ledger under `policy`.
public struct AccountClaim: Sendable, Equatable {
    public let environment: String
    public let originalTransactionId: String
    public let productId: String
    public let accountId: String
    public let policy: RestorePolicy
    public let origin: ClaimOrigin
    public let requestId: String
    public let at: Date

    public init(
        environment: String, originalTransactionId: String, productId: String, accountId: String,
        policy: RestorePolicy, origin: ClaimOrigin = .request, requestId: String, at: Date = Date()
    ) {
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.accountId = accountId
        self.policy = policy
        self.origin = origin
        self.requestId = requestId
        self.at = at
    }
}

/// What made a claim: a request for the account, or the account token the store carries with the purchase.
public enum ClaimOrigin: String, Sendable {
    case request
    /// Apple's `appAccountToken`: it binds a purchase nobody holds and never moves one (no refusal recorded).
    case accountToken = "account-token"
}
