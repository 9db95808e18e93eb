import Foundation
import GatewayCore
import PurchaseLedger

/// What support asks about: an order id (on the customer's receipt email) or a transaction id.
public enum SupportQuery: Sendable, Equatable {
    case orderId(String)
    case transactionId(String)
}

/// The answer to a ``SupportQuery``: the store's current view, and the ledger's history of every purchase
/// either names.
public struct SupportLookup: Sendable {
    public let query: SupportQuery
    /// The store's transactions for the query, verified; nil when it could not be asked (`storeError`).
    public let storeView: StorePurchases?
    public let storeError: String?
    public let histories: [PurchaseHistory]
}

extension VerificationService {
    /// Looks `query` up in the store (when a backend can) and in the ledger. Ledger failures throw; the store's
    /// are reported in the lookup, so the ledger's story is told even when the store cannot be reached.
    public func lookUp(_ query: SupportQuery, context: RequestContext) throws -> SupportLookup {
        var storeView: StorePurchases?
        var storeError: String?
        do {
            for backend in backends where storeView == nil {
                storeView = try backend.storeView(of: query, context: context)
            }
        } catch {
            storeError = "\(error)"
        }
        var ids: [String] = []
        if case .transactionId(let id) = query { ids.append(id) }
        ids += storeView?.transactions.map(\.transactionId) ?? []
        var originals: [LedgerOriginal] = []
        for id in ids {
            for original in try ledger.originals(of: id) where !originals.contains(original) {
                originals.append(original)
            }
        }
        return SupportLookup(
            query: query, storeView: storeView, storeError: storeError,
            histories: try originals.map { original throws(LedgerError) in try ledger.history(of: original) })
    }
}
