import GatewayHandlerAPI

/// Thrown by a backend when its store says a purchase is over for good (Google Play's 410
/// `purchaseTokenNoLongerValid`): the recorder ends the purchases the ledger knows by `handle`, then answers
/// `answer`.
package struct StorePurchaseEnded: Error, Sendable {
    package let store: String
    /// The digest the purchases were recorded by (``StorePurchases/handles``).
    package let handle: String
    package let answer: GatewayError

    package init(store: String, handle: String, answer: GatewayError) {
        self.store = store
        self.handle = handle
        self.answer = answer
    }
}
