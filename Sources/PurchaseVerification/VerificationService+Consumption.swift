import Foundation
import GatewayCore
import PurchaseLedger

extension VerificationService {
    /// Starts the work a serving gateway does beside requests, each on a thread of its own and only when a
    /// backend asks for it: answering the consumption requests the ledger holds (and those recorded from now
    /// on), and once, backfilling the notifications sent since the ledger's last one. `serve` calls it once
    /// the load serves (and again for a reload's new load); a command that only loads the config does not.
    public func startBackgroundWork(runtime: GatewayRuntime) {
        if backends.contains(where: \.backfillsNotificationsAtStart) {
            let backfill = Thread { [self] in backfillSinceLastRecorded(runtime: runtime) }
            backfill.name = "storegate-backfill"
            backfill.start()
        }
        guard backends.contains(where: \.answersConsumptionRequests) else { return }
        responder.withLock { slot in
            guard slot == nil else { return }
            let responder = ConsumptionResponder(service: self, runtime: runtime)
            slot = responder
            responder.start()
        }
    }

    /// Stops answering consumption requests, after the one being answered (a reload's new service takes over).
    public func stopBackgroundWork() {
        responder.withLock { slot in
            slot?.stop()
            slot = nil
        }
    }

    var consumptionResponder: ConsumptionResponder? { responder.withLock { $0 } }

    /// What the ledger and the catalog say about the delivery of `request`'s purchase.
    func deliveryFacts(for request: ConsumptionRequest) throws(LedgerError) -> DeliveryFacts {
        let grants = try ledger.deliveries(
            environment: request.environment, originalTransactionId: request.originalTransactionId)
        let product = catalog.product(id: request.productId)
        return DeliveryFacts(
            productId: request.productId, hasContent: product?.content != nil,
            offersSample: product?.offersSample ?? false, grants: grants.filter { $0.productId == request.productId })
    }
}
