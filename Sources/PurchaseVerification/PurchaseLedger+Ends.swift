import Foundation
import GatewayHandlerAPI
import PurchaseLedger

extension PurchaseLedger {
    /// Records the end, at `time` (now by default), of the purchases the ledger knows by `store`'s `handle` (the
    /// store says they are over for good), so their grants stop at once; each one ended is logged. Returns how
    /// many purchases it ended that were not ended before.
    @discardableResult
    func endPurchases(
        knownBy handle: String, store: String, at time: Date = Date(), source: LedgerSource, context: RequestContext
    ) throws(GatewayError) -> Int {
        var ended = 0
        do {
            for original in try originals(ofHandle: handle, store: store) {
                let count = try endPurchases(of: original, at: time, source: source)
                ended += count
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
        return ended
    }
}
