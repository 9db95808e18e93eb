import struct Foundation.Date

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
