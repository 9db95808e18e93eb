/// The answer to a ``SupportQuery``: the store's current view, and the ledger's story of every purchase
/// either names.
public struct SupportLookup: Sendable {
    public let query: SupportQuery
    /// The store's transactions for the query, verified; nil when it could not be asked (``storeProblem``).
    public let storeView: StoreView?
    /// Why the store's view is missing, in words for a support person.
    public let storeProblem: String?
    public let purchases: [PurchaseStory]

    package init(query: SupportQuery, storeView: StoreView?, storeProblem: String?, purchases: [PurchaseStory]) {
        self.query = query
        self.storeView = storeView
        self.storeProblem = storeProblem
        self.purchases = purchases
    }
}

/// A store's current view of a customer's transactions.
public struct StoreView: Sendable {
    /// `Production` or `Sandbox`.
    public let environment: String
    public let transactions: [PurchaseTransaction]

    package init(environment: String, transactions: [PurchaseTransaction]) {
        self.environment = environment
        self.transactions = transactions
    }
}
