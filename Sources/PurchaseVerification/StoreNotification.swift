import Foundation
import GatewayHandlerAPI
import PurchaseLedger

/// A store's server notification, verified by the backend that reads it, ready to be recorded once.
package struct StoreNotification: Sendable {
    /// The store's id of the notification; a repeat of it changes nothing.
    package let uuid: String
    package let environment: String
    package let type: String
    package let subtype: String?
    /// Whether it undoes an earlier refund (the App Store's REFUND_REVERSED).
    package let reinstates: Bool
    /// Whether it says the subscription it reports has expired (the App Store's EXPIRED and GRACE_PERIOD_EXPIRED,
    /// Google Play's SUBSCRIPTION_EXPIRED): its `purchase.expired` event.
    package let expires: Bool
    /// The app the transactions belong to, when the notification carries any.
    package let bundleId: String?
    /// The transaction the notification is about: a refund arrives as its cancellation date, a renewal as
    /// its next period.
    package let transactions: [PurchaseTransaction]
    /// Set when the notification asks what was delivered of a purchase because the customer asked for a refund
    /// (the App Store's CONSUMPTION_REQUEST, Google Play's refund review). The request is recorded with the
    /// notification (``DeliveryEvidence``) and answered by the store module's background work.
    package let evidenceAsked: EvidenceAsked?
    /// What the store expects to be told about the transactions, and what it knows them by, recorded with them
    /// (a store whose notifications are read back from its API).
    package let followUps: [StoreFollowUp]
    package let handles: [StoreHandle]
    /// The purchases the store says are over for good, by the store and the handle the ledger knows them by
    /// (Google Play's 410 for a token): ended where the ledger has them.
    package let ended: [(store: String, handle: String)]
    /// The transactions are what the store's API says now, read on the notification's word (Google Play), not
    /// what the notification carries: recorded again when the notification's id was seen before.
    package let readFromStore: Bool
    /// How the subscription it is about renews, as the store signed it with the notification (Apple's
    /// `signedRenewalInfo`).
    package let renewal: SubscriptionRenewal?

    package init(
        uuid: String, environment: String, type: String, subtype: String?, reinstates: Bool, expires: Bool = false,
        bundleId: String?,
        transactions: [PurchaseTransaction], evidenceAsked: EvidenceAsked? = nil, followUps: [StoreFollowUp] = [],
        handles: [StoreHandle] = [], ended: [(store: String, handle: String)] = [], readFromStore: Bool = false,
        renewal: SubscriptionRenewal? = nil
    ) {
        self.renewal = renewal
        self.expires = expires
        self.ended = ended
        self.readFromStore = readFromStore
        self.evidenceAsked = evidenceAsked
        self.followUps = followUps
        self.handles = handles
        self.uuid = uuid
        self.environment = environment
        self.type = type
        self.subtype = subtype
        self.reinstates = reinstates
        self.bundleId = bundleId
        self.transactions = transactions
    }
}
