import AppStoreServerAPI
import Foundation
import GatewayConcurrency
import GatewayHandlerAPI
import Logging

/// Set App Account Token calls, made on a queue of their own so that no request waits for Apple. A call that
/// meets Apple's trouble is tried again after 30 s, then 5 minutes; a refusal is logged and dropped. Held in
/// memory: a gateway that stops forgets what it had queued (the ledger keeps the binding either way).
final class AppAccountTokenUpdates: Sendable {
    private let client: ServerAPIClient
    private let queue = DispatchQueue(label: "storegate-app-account-token")
    /// The waits before the second and third attempts.
    private let retryDelays: [Duration]

    init(client: ServerAPIClient, retryDelays: [Duration] = [.seconds(30), .seconds(300)]) {
        self.client = client
        self.retryDelays = retryDelays
    }

    /// Queues a call making `token` the `appAccountToken` of purchase `originalTransactionId`.
    func set(_ token: UUID, originalTransactionId: String, environment: ServerAPIEnvironment, logger: Logger) {
        queue.async { self.attempt(0, token, originalTransactionId, environment, logger) }
    }

    private func attempt(
        _ number: Int, _ token: UUID, _ original: String, _ environment: ServerAPIEnvironment, _ logger: Logger
    ) {
        let metadata: Logger.Metadata = [
            "original_transaction_id": "\(original)", "environment": "\(environment.rawValue)",
        ]
        do {
            try client.setAppAccountToken(
                token, originalTransactionId: original, environment: environment,
                deadline: .now + .seconds(30), logger: logger)
            logger.info("app account token set", metadata: metadata)
        } catch {
            let retry = !(error.isRejected || error.isNotFound) && number < retryDelays.count
            logger.warning(
                "app account token not set",
                metadata: metadata.merging(["reason": "\(error)", "retry": "\(retry)"]) { $1 })
            guard retry else { return }
            let delay = retryDelays[number]
            queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay.nanoseconds))) {
                self.attempt(number + 1, token, original, environment, logger)
            }
        }
    }
}
