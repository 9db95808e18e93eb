import Logging
import PurchaseLedger

/// Purchases a store vouched for, checked against this server's policy and recorded in the ledger, with
/// the entitlements they give (download tokens attached). What verify and restore-sync render.
public struct VerifiedPurchases: Sendable {
    /// The store's status for the verdict (the App Store's 0, or 21006 for an expired iOS 6 receipt).
    public let status: Int
    /// `Production`, `Sandbox` or `Xcode`.
    public let environment: String
    public let bundleId: String
    public let transactions: [PurchaseTransaction]
    public internal(set) var entitlements: [Entitlement]
    /// Set when the request was for an app account (config `accounts`).
    public internal(set) var account: AccountAnswer?
    /// What recording them changed in the ledger.
    public let recorded: RecordOutcome
    /// The store backend's facts for the log line (such as a receipt digest and whether the verdict was cached).
    let storeFacts: Logger.Metadata
}
