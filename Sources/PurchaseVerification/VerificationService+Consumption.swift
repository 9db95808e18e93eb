import Foundation
import GatewayCore
import PurchaseLedger

extension VerificationService {
    /// Starts answering the consumption requests the ledger holds (and those recorded from now on) on a thread
    /// of its own, when a backend answers them. `serve` calls it once the load serves; a command that only
    /// loads the config does not. Once per service.
    public func startAnsweringConsumptionRequests(runtime: GatewayRuntime) {
        guard backends.contains(where: \.answersConsumptionRequests) else { return }
        responder.withLock { slot in
            guard slot == nil else { return }
            let responder = ConsumptionResponder(service: self, runtime: runtime)
            slot = responder
            responder.start()
        }
    }

    /// Stops answering them, after the one being answered (a reload's new service takes over).
    public func stopAnsweringConsumptionRequests() {
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
