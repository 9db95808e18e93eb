import GatewayHandlerAPI
import Logging
import PurchaseLedger

/// What a store vouched for in answer to one credential, before this server records it or decides what it
/// entitles: the store's status, environment, app and transactions.
package struct StorePurchases: Sendable {
    /// The store's own status for the verdict (the App Store's 0, or 21006 for an expired iOS 6 receipt).
    package let status: Int
    /// Where the purchases were made, such as `Production` or `Sandbox`.
    package let environment: String
    package let bundleId: String
    package let transactions: [PurchaseTransaction]
    /// Facts for the request's log line (a receipt digest, whether the verdict was cached);
    /// never a credential.
    package let logMetadata: Logger.Metadata
    /// What the store expects to be told once these purchases are recorded (Google's acknowledgement), recorded
    /// with them.
    package let followUps: [StoreFollowUp]
    /// What the store knows the purchases by (digests), so that its later "no longer valid" finds them.
    package let handles: [StoreHandle]

    package init(
        status: Int, environment: String, bundleId: String, transactions: [PurchaseTransaction],
        logMetadata: Logger.Metadata = [:], followUps: [StoreFollowUp] = [], handles: [StoreHandle] = []
    ) {
        self.followUps = followUps
        self.handles = handles
        self.status = status
        self.environment = environment
        self.bundleId = bundleId
        self.transactions = transactions
        self.logMetadata = logMetadata
    }
}
