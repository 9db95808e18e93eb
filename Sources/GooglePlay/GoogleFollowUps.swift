import Foundation
import GooglePlayAPI
import Logging
import PurchaseLedger
import PurchaseVerification

/// Tells Google what the ledger says it must hear: Google refunds a purchase not acknowledged within three days,
/// and sells a consumable again only once it is consumed. ``FollowUpSender`` claims the follow-ups and settles
/// them; this makes the Play Developer API's call for each.
struct GoogleFollowUps: FollowUpPerformer {
    /// What a follow-up asks Google to do, in the words the support timeline shows.
    enum Action: String, CaseIterable {
        case acknowledge
        case acknowledgeSubscription = "acknowledge subscription"
        case consume
    }

    let client: GooglePlayClient
    /// `api`'s background deadline: a login and a call with all their attempts.
    let callDeadline: Duration

    init(client: GooglePlayClient, api: GoogleAPISettings) {
        self.client = client
        callDeadline = api.backgroundCallDeadline
    }

    var store: String { GooglePlayIds.store }
    var storeName: String { "Google" }
    var actions: [String] { Action.allCases.map(\.rawValue) }

    func perform(_ followUp: StoreFollowUp, deadline: ContinuousClock.Instant, logger: Logger)
        throws(FollowUpFailure)
    {
        let (app, product, token) = (followUp.app, followUp.storeProductId, followUp.subject)
        do throws(GooglePlayFailure) {
            switch Action(rawValue: followUp.action) {
            case .acknowledge, .acknowledgeSubscription:
                try client.acknowledge(
                    packageName: app, productId: product, token: token,
                    subscription: followUp.action == Action.acknowledgeSubscription.rawValue, deadline: deadline,
                    logger: logger)
            case .consume:
                try client.consume(
                    packageName: app, productId: product, token: token, deadline: deadline, logger: logger)
            case nil:
                throw GooglePlayFailure(.rejected, "this gateway does not know the follow-up \(followUp.action)")
            }
        } catch {
            throw FollowUpFailure(
                isFinal: [.notFound, .gone, .rejected].contains(error.kind), reason: error.reason,
                retryAfter: error.retryAfter)
        }
    }
}
