import struct Foundation.Date

/// A change to who holds a purchase, as the ledger keeps it for support and audit.
package enum BindingChange: String, Sendable {
    case bound, shared, transferred
    /// A claim refused under `keep`: nothing moved, but support sees that it was tried.
    case refused
}

/// One recorded ``BindingChange``.
package struct BindingEvent: Sendable, Equatable {
    package let environment: String
    package let originalTransactionId: String
    package let accountId: String
    package let change: BindingChange
    package let origin: ClaimOrigin
    /// The accounts that held the purchase before, for a transfer, share or refusal.
    package let otherAccounts: [String]
    package let at: Date
    package let requestId: String
}
