import Logging
import PurchaseLedger

/// What a store module does for its store's follow-ups (Google Play's acknowledgements and consumptions, the
/// App Store's finished transactions): one call each, and what its failure means. ``FollowUpSender`` claims them
/// from the ledger, hands them here one at a time, and settles them.
package protocol FollowUpPerformer: Sendable {
    /// The store whose follow-ups these are, as the ledger names it (`google-play`).
    var store: String { get }
    /// The store in words, for the support timeline's outcomes and the log (`Google`).
    var storeName: String { get }
    /// Every action it performs, for the metrics of each.
    var actions: [String] { get }
    /// The most one follow-up may take, all attempts included: a claim's lease outlives it, so no other gateway
    /// sends what this one still may.
    var callDeadline: Duration { get }

    /// Tells the store what `followUp` says, by `deadline`.
    func perform(_ followUp: StoreFollowUp, deadline: ContinuousClock.Instant, logger: Logger) throws(FollowUpFailure)
}

/// Why a store did not take a follow-up.
package struct FollowUpFailure: Error, Sendable {
    /// The store refused it for good (the purchase is gone, or the request can never succeed): it is given up.
    /// Otherwise it is tried again later.
    package let isFinal: Bool
    /// In words, for the support timeline.
    package let reason: String
    /// When the store asked to be called again (`Retry-After`).
    package let retryAfter: Duration?

    package init(isFinal: Bool, reason: String, retryAfter: Duration? = nil) {
        self.isFinal = isFinal
        self.reason = reason
        self.retryAfter = retryAfter
    }
}
