import PurchaseLedger

/// A receipt the App Store vouched for, checked against this server's policy and recorded in the ledger.
public struct VerifiedReceipt: Sendable {
    /// Apple's status: 0, or 21006 for an iOS 6 receipt whose subscription has expired.
    public let status: Int
    /// `Production` or `Sandbox`: the verifyReceipt host that vouched for it.
    public let environment: String
    public let bundleId: String
    public let transactions: [AppleTransaction]
    public let entitlements: [Entitlement]
    /// What recording it changed in the ledger.
    public let recorded: RecordOutcome
}
