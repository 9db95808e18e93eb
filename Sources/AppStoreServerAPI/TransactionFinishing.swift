/// When the gateway tells the App Store a consumable's or non-consumable's transaction is finished
/// (`apple.server_api.finish_transactions`), so that an app that crashed after paying is not left with an
/// unfinished transaction.
package enum TransactionFinishing: String, CaseIterable, Sendable {
    /// Never: the app finishes its transactions (StoreKit's `finish()`).
    case never
    /// Once the ledger has recorded the purchase.
    case recorded
    /// Once the gateway delivered the product's content (when it has none, once recorded).
    case delivered
}
