import AppStoreServerAPI
import GatewayHandlerAPI
import PurchaseVerification

extension ServerAPIBackend {
    /// Apple's current view for support: Look Up Order ID for an order, the customer's transaction history
    /// for a transaction (asked afresh, not from the cache).
    func storeView(of query: SupportQuery, context: RequestContext) throws -> StorePurchases? {
        // Apple's order ids are letters and digits; another store's (Google's `GPA.…`) is not Apple's to find.
        if case .orderId(let id) = query, !id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            throw StoreViewUnavailable("not asked: that is not an App Store order id")
        }
        let signed: [ServerAPISigned]
        do {
            switch query {
            case .orderId(let id):
                signed = try client.lookUpOrder(id, deadline: context.deadline, logger: context.logger)
            case .transactionId(let id):
                signed = try client.transactionHistory(id, deadline: context.deadline, logger: context.logger)
            case .grantId:
                return nil
            }
        } catch {
            throw StoreViewUnavailable(error.supportSentence(for: query, logger: context.logger))
        }
        return try Self.purchases(from: signed, context: context)
    }
}
