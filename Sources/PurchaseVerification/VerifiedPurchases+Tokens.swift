import ProductCatalog

extension VerifiedPurchases {
    /// These purchases with a fresh download token on each entitlement whose product has content, when
    /// `tokens` are configured.
    func issuingTokens(_ tokens: DownloadTokens?, catalog: Catalog) -> VerifiedPurchases {
        guard let tokens else { return self }
        var copy = self
        for index in copy.entitlements.indices {
            let entitlement = copy.entitlements[index]
            guard catalog.product(id: entitlement.productId)?.content != nil else { continue }
            copy.entitlements[index].downloadToken = tokens.issue(
                productId: entitlement.productId, originalTransactionId: entitlement.originalTransactionId,
                environment: environment)
        }
        return copy
    }
}
