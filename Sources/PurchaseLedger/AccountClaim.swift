import struct Foundation.Date

/// What happens when an account claims a purchase another account already holds (a restore on a second
/// account of the app, a family member on the same Apple ID).
public enum RestorePolicy: String, Sendable, CaseIterable {
    /// The purchase moves to the account that claimed it; the others lose it.
    case transfer
    /// The first account keeps it; the claim is refused.
    case keep
    /// Every account that claims it holds it.
    case share
}

/// What made a claim: a request for the account, or the account token the store carries with the purchase.
public enum ClaimOrigin: String, Sendable {
    case request
    /// Apple's `appAccountToken`: it binds a purchase nobody holds and never moves one (no refusal recorded).
    case accountToken = "account-token"
}

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

/// What the ledger made of an ``AccountClaim``.
public enum ClaimOutcome: Sendable, Equatable {
    /// The purchase had no account; it is bound to this one.
    case bound
    /// This account held it already; nothing changed.
    case held
    /// These other accounts hold it too (`share`).
    case shared(with: [String])
    /// It moved here from these accounts (`transfer`).
    case transferred(from: [String])
    /// These accounts keep it (`keep`); the claim is refused.
    case heldByOthers([String])

    /// Whether the claiming account holds the purchase now.
    public var holds: Bool {
        if case .heldByOthers = self { return false }
        return true
    }

    /// The change recorded for it, or nil when nothing changed.
    public func change(origin: ClaimOrigin) -> BindingChange? {
        switch self {
        case .bound: .bound
        case .held: nil
        case .shared: .shared
        case .transferred: .transferred
        case .heldByOthers: origin == .request ? .refused : nil
        }
    }

    /// Settles `claim` against the accounts holding the purchase now.
    static func settle(_ claim: AccountClaim, holders: [String]) -> ClaimOutcome {
        if holders.isEmpty { return .bound }
        if holders.contains(claim.accountId) { return .held }
        if claim.origin == .accountToken { return .heldByOthers(holders) }
        switch claim.policy {
        case .share: return .shared(with: holders)
        case .transfer: return .transferred(from: holders)
        case .keep: return .heldByOthers(holders)
        }
    }
}

/// A change to who holds a purchase, as the ledger keeps it for support and audit.
public enum BindingChange: String, Sendable {
    case bound, shared, transferred
    /// A claim refused under `keep`: nothing moved, but support sees that it was tried.
    case refused
}

/// One recorded ``BindingChange``.
public struct BindingEvent: Sendable, Equatable {
    public let environment: String
    public let originalTransactionId: String
    public let accountId: String
    public let change: BindingChange
    public let origin: ClaimOrigin
    /// The accounts that held the purchase before, for a transfer, share or refusal.
    public let otherAccounts: [String]
    public let at: Date
    public let requestId: String
}
