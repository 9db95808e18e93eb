import Foundation
import GatewayHandlerAPI
import PurchaseLedger

/// Support lookups, read-only: behind ``SupportDesk`` (the support page) and `storegate lookup`.
package struct PurchaseLookup: Sendable {
    private let stores: StoreBackends
    private let ledger: any PurchaseLedger

    package init(stores: StoreBackends, ledger: any PurchaseLedger) {
        self.stores = stores
        self.ledger = ledger
    }

    /// Looks `query` up in the store (when a backend can) and in the ledger. Ledger failures throw; the store's
    /// are told in the lookup, so the ledger's story is told even when the store cannot be reached.
    package func lookUp(_ query: SupportQuery, context: RequestContext) throws -> SupportLookup {
        var storeView: StorePurchases?
        var storeProblem: String?
        var ids: [String] = []
        switch query {
        case .grantId(let id):
            // A free grant is this server's alone: no store knows it.
            ids.append(id)
            storeProblem = "not asked: a free grant is this server's, not the store's"
        case .transactionId(let id), .orderId(let id):
            // An order id is the ledger's own for a store that names purchases by their orders (Google Play).
            ids.append(id)
            ids += stores.backends.flatMap { $0.ledgerIds(ofOrder: id) }
            do {
                for backend in stores.backends where storeView == nil {
                    storeView = try backend.storeView(of: query, context: context)
                }
            } catch let unavailable as StoreViewUnavailable {
                storeProblem = unavailable.sentence
            } catch let error as GatewayError {
                storeProblem = error.message
            } catch {
                storeProblem = "The store could not be asked."
            }
        }
        ids += storeView?.transactions.map(\.transactionId) ?? []
        var originals: [LedgerOriginal] = []
        for id in ids {
            for original in try ledger.originals(of: id) where !originals.contains(original) {
                originals.append(original)
            }
        }
        return SupportLookup(
            query: query,
            storeView: storeView.map { StoreView(environment: $0.environment, transactions: $0.transactions) },
            storeProblem: storeProblem,
            purchases: try originals.map { original throws(LedgerError) in try ledger.history(of: original).story })
    }
}
