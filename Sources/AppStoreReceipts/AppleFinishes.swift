import AppStoreServerAPI
import Logging
import PurchaseLedger
import PurchaseVerification

/// Tells the App Store that a transaction is finished (Finish Transaction), for ``FollowUpSender``: Apple's
/// refusal (the transaction is unknown to it, or the request cannot succeed) gives it up, its trouble defers it.
struct AppleFinishes: FollowUpPerformer {
    let client: ServerAPIClient

    var store: String { AppStoreVerification.store }
    var storeName: String { "Apple" }
    var actions: [String] { [FinishFollowUps.action] }
    var callDeadline: Duration { client.backgroundCallDeadline }

    func perform(_ followUp: StoreFollowUp, deadline: ContinuousClock.Instant, logger: Logger)
        throws(FollowUpFailure)
    {
        guard let environment = ServerAPIEnvironment(rawValue: followUp.environment) else {
            throw FollowUpFailure(isFinal: true, reason: "the App Store has no environment \(followUp.environment)")
        }
        do {
            try client.finishTransaction(followUp.subject, environment: environment, deadline: deadline, logger: logger)
        } catch {
            throw FollowUpFailure(
                isFinal: error.isRejected || error.isNotFound, reason: "\(error)", retryAfter: error.retryAfter)
        }
    }
}
