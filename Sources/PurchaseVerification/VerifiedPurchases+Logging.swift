import Logging

extension VerifiedPurchases {
    /// For the request's log line: the environment, the products the receipt entitles (at most five named,
    /// then a count; no field when it entitles nothing) and how many transactions it holds. Never the
    /// receipt or a transaction's own data.
    public var logMetadata: Logger.Metadata {
        var products: [String] = []
        for entitlement in entitlements where !products.contains(entitlement.productId) {
            products.append(entitlement.productId)
        }
        let named = products.prefix(5).joined(separator: ",") + (products.count > 5 ? ",+\(products.count - 5)" : "")
        var metadata: Logger.Metadata = ["environment": "\(environment)", "transactions": "\(transactions.count)"]
        if !products.isEmpty { metadata["product"] = "\(named)" }
        return metadata
    }
}
