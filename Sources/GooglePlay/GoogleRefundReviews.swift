import Foundation
import GatewayHandlerAPI
import GooglePlayAPI
import PurchaseLedger
import PurchaseVerification

/// Answers Google Play's pending refund reviews (a customer disputes a charge; Google asks the developer within 24
/// hours) through `orders.reviewrefund`, with the ledger's delivery facts under `refund_requests`: the same
/// evidence the App Store is sent, in Google's words, plus each grant of the content as a usage event. Only with
/// the customers' consent, as for Apple; Google's refusal settles a review unanswered, its trouble defers it.
struct GoogleRefundReviews: EvidenceAnswerer {
    /// Google takes answers within 24 hours of its notification.
    static let window: TimeInterval = 24 * 3_600

    let client: GooglePlayClient
    let policy: RefundRequestPolicy
    /// How long one answer may take, all attempts and a login included; a claim outlives it.
    private let callDeadline: Duration

    var store: String { GooglePlayIds.store }

    /// The claim on a review, beyond any answer's time: no other gateway answers what this one still may.
    var lease: TimeInterval { Double(callDeadline.components.seconds) + 5 }

    init(client: GooglePlayClient, api: GoogleAPISettings, policy: RefundRequestPolicy) {
        self.client = client
        self.policy = policy
        callDeadline = api.backgroundCallDeadline
    }

    func answer(_ request: ConsumptionRequest, facts: DeliveryFacts, context: RequestContext) throws
        -> ConsumptionReply?
    {
        guard let packageName = request.app, let pendingRefundToken = request.subject,
            let orderId = GooglePlayIds.orderId(of: request.transactionId, packageName: packageName)
        else { return nil }
        guard Date() < request.requestedAt + Self.window else {
            return .unanswered(reason: "Google's 24-hour answer window had passed")
        }
        guard policy.customerConsented else {
            return .unanswered(reason: "customers did not consent (customer_consented); nothing is sent")
        }
        let review = Self.review(of: facts, token: pendingRefundToken, under: policy)
        do throws(GooglePlayFailure) {
            try client.reviewRefund(
                packageName: packageName, orderId: orderId, review: review,
                deadline: ContinuousClock.now + callDeadline, logger: context.logger)
        } catch {
            if [.notFound, .gone, .rejected].contains(error.kind) {
                return .unanswered(reason: "Google refused the answer: \(error.reason)")
            }
            throw GatewayError.google(error)
        }
        return .answered(answer: review.recordedJSON, outcome: "accepted by Google")
    }

    /// The review for a purchase with `facts`: its delivery, share consumed and sample as Apple is told them, the
    /// preference as `refund_requests` leans (NEUTRAL when it does not), each grant as a usage event.
    static func review(of facts: DeliveryFacts, token: String, under policy: RefundRequestPolicy) -> RefundReview {
        let preference: RefundReview.Preference =
            switch policy.lean(for: facts) {
            case .decline: .decline
            case .grant: .approve
            // Google takes no prorated preference: it is told the share consumed and decides.
            case .grantProrated, nil: .neutral
            }
        return RefundReview(
            pendingRefundToken: token, sampleContentProvided: facts.offersSample, refundPreference: preference,
            consumptionPercentageMilliunits: facts.consumedMilliunits,
            usageEvents: facts.grants.map { grant in
                RefundReview.UsageEvent(
                    time: grant.deliveredAt, description: "content of \(facts.productId) granted for download")
            })
    }
}
