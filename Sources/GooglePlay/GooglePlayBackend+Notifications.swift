import Foundation
import GatewayHandlerAPI
import GooglePlayAPI
import PurchaseVerification

extension GooglePlayBackend {
    /// A real-time developer notification pushed by Cloud Pub/Sub; nil for a body of another store's kind.
    ///
    /// The push is taken only with Pub/Sub's OIDC token for `google.notifications` (anything else is refused and
    /// nothing is recorded), and its notification is a signal, never trusted for state: the purchase it names is
    /// read from the Play Developer API, and what Google says there is what gets recorded (renewed, cancelled,
    /// expired, revoked, voided). Recorded once per Pub/Sub message id; Google's trouble is a 503, so Pub/Sub
    /// delivers the message again.
    func notification(_ delivery: NotificationDelivery, context: RequestContext) throws -> StoreNotification? {
        guard let message = GooglePlayPush.message(in: delivery.body) else { return nil }
        guard let pushes else {
            context.logger.warning(
                "a Google Play push was refused: google.notifications is not configured, so no push can be checked")
            throw GatewayError.googlePushRefused
        }
        do {
            try pushes.check(
                authorization: delivery.authorization, deadline: context.deadline, logger: context.logger)
        } catch {
            if error.kind == .rejected {
                context.logger.warning("a Google Play push was refused", metadata: ["reason": "\(error.reason)"])
                throw GatewayError.googlePushRefused
            }
            context.logger.warning(
                "a Google Play push could not be checked now", metadata: ["reason": "\(error.reason)"])
            throw GatewayError.google(error)
        }
        let push: GooglePlayPush
        switch GooglePlayPush.read(message) {
        case .success(let read): push = read
        case .failure(let failure):
            throw GatewayError.badRequest("The Google Play push cannot be read: \(failure.reason).")
        }
        guard settings.packageNames.contains(push.packageName) else { throw GatewayError.googleBundleMismatch }
        let uuid = GooglePlayIds.store + ":" + push.messageId
        let (type, token) = Self.kind(of: push.event)
        let reading = try token.map {
            try current($0.token, subscription: $0.subscription, push: push, context: context)
        }
        var evidenceAsked: EvidenceAsked?
        if case .refundReview(let orderId, let pendingRefundToken, _) = push.event {
            // Google's 24 hours count from its notification; a redelivery must not stretch them.
            evidenceAsked = EvidenceAsked(
                store: GooglePlayIds.store, requestedAt: min(push.sentAt ?? Date(), Date()),
                transactionId: GooglePlayIds.order(orderId, packageName: push.packageName), app: push.packageName,
                subject: pendingRefundToken)
        }
        let purchases: StorePurchases? = if case .read(let purchases) = reading { purchases } else { nil }
        let ended: [(store: String, handle: String)] =
            if case .ended = reading, let token { [(GooglePlayIds.store, TokenDigest.hex(token.token))] } else { [] }
        return StoreNotification(
            uuid: uuid, environment: purchases?.environment ?? "Production", type: type, subtype: nil,
            // Google's SubscriptionNotification type 13 is SUBSCRIPTION_EXPIRED.
            reinstates: false, expires: type == "SUBSCRIPTION_13", bundleId: push.packageName,
            transactions: purchases?.transactions ?? [],
            evidenceAsked: evidenceAsked, followUps: purchases?.followUps ?? [], handles: purchases?.handles ?? [],
            ended: ended, readFromStore: true)
    }

    /// The notification's type as recorded, and the purchase it names, with its kind (none for a test, or a
    /// refund review).
    private static func kind(of event: GooglePlayPush.Event) -> (String, (token: String, subscription: Bool)?) {
        switch event {
        case .test: ("TEST", nil)
        case .oneTimeProduct(let token, let type): ("ONE_TIME_PRODUCT_\(type)", (token, false))
        case .subscription(let token, let type): ("SUBSCRIPTION_\(type)", (token, true))
        case .voided(let token, let productType): ("VOIDED_PURCHASE", (token, productType == 1))
        case .refundReview: ("PENDING_REFUND_REVIEW", nil)
        }
    }

    /// What Google's API says of a purchase now.
    private enum Reading {
        case read(StorePurchases)
        /// Over for good (410): ended where the ledger knows it.
        case ended
        /// Still waiting for payment: nothing to record yet.
        case pending
    }

    /// The purchase of `token` as Google's API shows it now, read past the cache.
    private func current(
        _ token: String, subscription: Bool, push: GooglePlayPush, context: RequestContext
    ) throws(GatewayError) -> Reading {
        forgetVerdict(on: token, packageName: push.packageName, subscription: subscription)
        do throws(GatewayError) {
            return .read(
                subscription
                    ? try self.subscription(token, packageName: push.packageName, context: context)
                    : try product(token, packageName: push.packageName, context: context))
        } catch .purchaseNoLongerValid {
            return .ended
        } catch .purchasePending {
            return .pending
        }
    }
}
