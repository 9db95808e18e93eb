/// What the ledger made of an ``AccountClaim``.
package enum ClaimOutcome: Sendable, Equatable {
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
    package var holds: Bool {
        if case .heldByOthers = self { return false }
        return true
    }

    /// The other accounts involved: those it was shared with, transferred from, or kept by.
    var otherAccounts: [String] {
        switch self {
        case .bound, .held: []
        case .shared(let others), .transferred(let others), .heldByOthers(let others): others
        }
    }

    /// The change recorded for it, or nil when nothing changed.
    package func change(origin: ClaimOrigin) -> BindingChange? {
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
