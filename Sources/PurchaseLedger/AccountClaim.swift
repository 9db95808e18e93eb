import struct Foundation.Date

/// An app account's claim to one purchase (all of an original transaction), asserted by something the
/// operator trusts and settled by the ledger under `policy`.
package struct AccountClaim: Sendable, Equatable {
    package let environment: String
    package let originalTransactionId: String
    package let productId: String
    package let accountId: String
    package let policy: RestorePolicy
    package let origin: ClaimOrigin
    package let requestId: String
    package let at: Date

    package init(
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
package enum ClaimOrigin: String, Sendable {
    case request
    /// Apple's `appAccountToken`: it binds a purchase nobody holds and never moves one (no refusal recorded).
    case accountToken = "account-token"
    /// A free grant to the account (`storegate grant --account`).
    case grant
}
