import Foundation
import GatewayHandlerAPI

extension VerifiedPurchases {
    /// These purchases with a fresh download token on each entitlement whose product has content, when
    /// `tokens` are configured.
    func issuingTokens(_ tokens: DownloadTokens?, catalog: Catalog) -> VerifiedPurchases {
        guard let tokens else { return self }
        var copy = self
        for index in copy.entitlements.indices {
            copy.granted[index].issueToken(tokens, catalog: catalog, environment: environment)
        }
        return copy
    }
}

extension Entitlement {
    /// Gives this entitlement a fresh download token when its product has content.
    mutating func issueToken(_ tokens: DownloadTokens, catalog: Catalog, environment: String, now: Date = Date()) {
        guard catalog.product(id: productId)?.content != nil else { return }
        issuedToken = tokens.issue(
            productId: productId, originalTransactionId: originalTransactionId, environment: environment, now: now)
    }
}
