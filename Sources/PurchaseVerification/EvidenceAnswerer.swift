import GatewayHandlerAPI
import PurchaseLedger

/// A store module's side of answering its requests for delivery evidence: the call to the store, under its
/// window and the deployment's ``RefundRequestPolicy``. ``EvidenceResponder`` claims, gathers and settles.
package protocol EvidenceAnswerer: Sendable {
    /// The store whose requests it answers, as they are recorded (`app-store`, `google-play`).
    var store: String { get }

    /// Answers `request` with `facts`; nil when this answerer cannot (the request is then settled unanswered).
    /// Throws when the store cannot take the answer now, so the request is deferred.
    func answer(_ request: ConsumptionRequest, facts: DeliveryFacts, context: RequestContext) throws
        -> ConsumptionReply?
}
