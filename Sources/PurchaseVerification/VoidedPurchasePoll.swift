import Foundation
import GatewayHandlerAPI
import Logging
import Synchronization

/// A serving gateway's poll of one store's voided purchases, every `interval` on a thread of its own: each poll
/// ends the purchases the store voided since the last (the first reaches back as far as the store keeps its
/// list), and is recorded as a backfill. Not woken by what requests record: it calls the store only on its clock.
final class VoidedPurchasePoll: BackgroundWork, Sendable {
    private let loop: BackgroundLoop
    private let since = Mutex(Date.distantPast)

    init(
        _ backend: any VerificationBackend, every interval: TimeInterval, backfiller: NotificationBackfiller,
        logger: Logger, nextRequestId: @escaping @Sendable () -> String
    ) {
        loop = BackgroundLoop(name: "storegate-voided", interval: interval)
        loop.start { [weak self] in
            guard let self else { return }
            let context = RequestContext(requestId: nextRequestId(), deadline: .now + .seconds(300), logger: logger)
            let next = backfiller.pollVoided(backend, from: since.withLock { $0 }, context: context)
            since.withLock { $0 = next }
        }
    }

    func wake() {}

    func stop() { loop.stop() }
}
