/// How app receipts are verified (`apple.verifier`).
package enum ReceiptVerification: String, Sendable {
    /// Posted to Apple's verifyReceipt; the receipt stays opaque.
    case online
    /// Checked here against `apple.root_certificates`, never sent to Apple.
    case local
    /// Checked here; a receipt that cannot be checked here (not parsed, not signed by a configured root) goes
    /// to Apple. A genuine receipt of another app or environment is refused without asking Apple.
    case localThenOnline = "local-then-online"
    /// Its transaction ids read here (the receipt unverified), then the customer's transaction history from
    /// the App Store Server API (`apple.server_api`) is what is recorded and answered. Restore-sync with
    /// signed transactions also takes the customer's whole history from Apple.
    case serverAPI = "server-api"
}
