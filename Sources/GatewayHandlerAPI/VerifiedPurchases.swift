import Logging

/// Purchases a store vouched for, checked against this server's policy and recorded in the ledger, with
/// the entitlements they give (download tokens attached). What verify and restore-sync render.
public struct VerifiedPurchases: Sendable {
    /// The store's status for the verdict (the App Store's 0, or 21006 for an expired iOS 6 receipt).
    public let status: Int
    /// `Production`, `Sandbox` or `Xcode`.
    public let environment: String
    public let bundleId: String
    public let transactions: [PurchaseTransaction]
    public var entitlements: [Entitlement] { granted }
    /// Set when the request was for an app account (config `accounts`).
    public var account: AccountAnswer? { accountAnswer }
    /// Stored apart from their public getters, which give a handler read-only key paths (a `package(set)`
    /// stored property's key path casts to a writable one).
    package var granted: [Entitlement]
    package var accountAnswer: AccountAnswer?
    /// Purchases (as the ledger keys them) that recording these transactions added to the ledger.
    public let recordedPurchases: Int
    /// Purchases the ledger already held.
    public let knownPurchases: Int
    /// The store backend's facts for the log line (such as a receipt digest and whether the verdict was cached).
    package let storeFacts: Logger.Metadata

    package init(
        status: Int, environment: String, bundleId: String, transactions: [PurchaseTransaction],
        entitlements: [Entitlement], recordedPurchases: Int, knownPurchases: Int, storeFacts: Logger.Metadata
    ) {
        self.status = status
        self.environment = environment
        self.bundleId = bundleId
        self.transactions = transactions
        granted = entitlements
        self.recordedPurchases = recordedPurchases
        self.knownPurchases = knownPurchases
        self.storeFacts = storeFacts
    }
}
