import Foundation
import GatewayHandlerAPI
import PurchaseLedger

extension PurchaseLedger {
    /// Records the end, now, of the purchases the ledger knows by `store`'s `handle` (the store says they are
    /// over for good), so their grants stop at once; each one ended is logged.
    func endPurchases(
        knownBy handle: String, store: String, source: LedgerSource, context: RequestContext
    ) throws(GatewayError) {
        do {
            let now = Date()
            for original in try originals(ofHandle: handle, store: store) {
                let count = try endPurchases(of: original, at: now, source: source)
                if count > 0 {
                    context.logger.info(
                        "the store says a purchase is over; recorded as ended",
                        metadata: [
                            "store": "\(store)", "original_transaction_id": "\(original.originalTransactionId)",
                            "environment": "\(original.environment)",
                        ])
                }
            }
        } catch {
            throw error.answer("the ledger could not record a purchase's end", logger: context.logger)
        }
    }
}
