import Logging

extension VerifiedPurchases {
    /// For the request's log line: the environment, the products the purchases entitle (at most five named,
    /// then a count; no field when they entitle nothing), how many transactions and entitlements there are,
    /// how many purchases were new to the ledger, the app account asking (and how many products other accounts
    /// keep), and the store backend's facts (a receipt's digest, whether its verdict was cached). Never the
    /// receipt or a transaction's own data.
    public var logMetadata: Logger.Metadata {
        var products: [String] = []
        for entitlement in entitlements where !products.contains(entitlement.productId) {
            products.append(entitlement.productId)
        }
        var metadata = storeFacts
        metadata["environment"] = "\(environment)"
        metadata["transactions"] = "\(transactions.count)"
        metadata["entitlements"] = "\(entitlements.count)"
        metadata["recorded"] = "\(recordedPurchases)"
        if let account {
            metadata["account"] = "\(account.accountId)"
            if !account.heldByOtherAccounts.isEmpty {
                metadata["held_elsewhere"] = "\(account.heldByOtherAccounts.count)"
            }
        }
        if !products.isEmpty {
            let named =
                products.prefix(5).joined(separator: ",") + (products.count > 5 ? ",+\(products.count - 5)" : "")
            metadata["product"] = "\(named)"
        }
        return metadata
    }
}
