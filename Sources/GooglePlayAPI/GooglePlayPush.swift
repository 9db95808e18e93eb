import Foundation

/// A Google Play real-time developer notification as Cloud Pub/Sub pushes it: the push's envelope
/// (`{"message": {"data": "<base64>", "messageId": "…"}, "subscription": "…"}`) and the `DeveloperNotification`
/// its data carries. Plain values, decoded as Google documents them; what they mean is the backend's to say.
package struct GooglePlayPush: Sendable, Equatable {
    /// What the notification is about: exactly one of Google's kinds.
    package enum Event: Sendable, Equatable {
        /// `oneTimeProductNotification`: Google's `notificationType` (1 purchased, 2 canceled).
        case oneTimeProduct(token: String, type: Int)
        /// `subscriptionNotification`: Google's `notificationType` (1 recovered … 20 pending purchase canceled).
        case subscription(token: String, type: Int)
        /// `voidedPurchaseNotification`: a refund, chargeback or revocation; `productType` 1 is a subscription,
        /// 2 a one-time product.
        case voided(token: String, productType: Int)
        /// `pendingRefundReviewNotification`: Google asks, within 24 hours, for a refund preference and usage
        /// evidence on the order (`orders.reviewrefund` with the notification's `pendingRefundToken`); `reason` is
        /// Google's `refundReason` (7, a chargeback, is the only one sent so far). It names no purchase token.
        case refundReview(orderId: String, pendingRefundToken: String, reason: Int?)
        /// `testNotification`, sent from Play Console.
        case test
    }

    /// Pub/Sub's id of the message: a redelivery carries the same one.
    package let messageId: String
    package let packageName: String
    /// When Google sent the notification (`eventTimeMillis`), if it says.
    package let sentAt: Date?
    package let event: Event

    /// The message of the Pub/Sub push in `body`, unread; nil when `body` is not shaped as a push at all (another
    /// store's notification). Its data is read only once the push is authenticated (``read(_:)``).
    package static func message(in body: [UInt8]) -> [String: String]? {
        guard let envelope = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let message = envelope["message"] as? [String: Any]
        else { return nil }
        return message.compactMapValues { $0 as? String }
    }

    /// The push whose `message` ``message(in:)`` found, or what is wrong with it.
    package static func read(_ message: [String: String]) -> Result<GooglePlayPush, GooglePlayFailure> {
        Result { () throws(GooglePlayFailure) in try GooglePlayPush(message: message) }
    }

    private init(message: [String: String]) throws(GooglePlayFailure) {
        guard let id = message["messageId"] ?? message["message_id"], !id.isEmpty,
            id.utf8.count <= 200
        else {
            throw Self.unreadable("the push's message has no messageId")
        }
        guard let text = message["data"], let data = Data(base64Encoded: text) else {
            throw Self.unreadable("the push's message data is not base64")
        }
        guard let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw Self.unreadable("the push's message data is not a JSON developer notification")
        }
        guard let packageName = fields["packageName"] as? String, !packageName.isEmpty else {
            throw Self.unreadable("the developer notification names no packageName")
        }
        messageId = id
        self.packageName = packageName
        sentAt = Self.integer(fields["eventTimeMillis"]).map { Date(timeIntervalSince1970: Double($0) / 1000) }
        event = try Self.event(fields)
    }

    private static func event(_ fields: [String: Any]) throws(GooglePlayFailure) -> Event {
        if let product = fields["oneTimeProductNotification"] as? [String: Any] {
            return .oneTimeProduct(token: try token(product), type: integer(product["notificationType"]) ?? 0)
        }
        if let subscription = fields["subscriptionNotification"] as? [String: Any] {
            return .subscription(token: try token(subscription), type: integer(subscription["notificationType"]) ?? 0)
        }
        if let voided = fields["voidedPurchaseNotification"] as? [String: Any] {
            return .voided(token: try token(voided), productType: integer(voided["productType"]) ?? 0)
        }
        if let review = fields["pendingRefundReviewNotification"] as? [String: Any] {
            guard let orderId = review["orderId"] as? String, !orderId.isEmpty, orderId.utf8.count <= 200,
                let pending = review["pendingRefundToken"] as? String, !pending.isEmpty, pending.utf8.count <= 4096
            else { throw unreadable("the refund review names no orderId or pendingRefundToken") }
            return .refundReview(orderId: orderId, pendingRefundToken: pending, reason: integer(review["refundReason"]))
        }
        if fields["testNotification"] is [String: Any] { return .test }
        throw unreadable("the developer notification is of no kind Google documents")
    }

    private static func token(_ fields: [String: Any]) throws(GooglePlayFailure) -> String {
        guard let token = fields["purchaseToken"] as? String, !token.isEmpty, token.utf8.count <= 4096 else {
            throw unreadable("the developer notification has no purchaseToken")
        }
        return token
    }

    /// Google writes int64 fields as JSON strings and int32 ones as numbers; either is read, when whole and in
    /// range (no number that only a double holds).
    private static func integer(_ value: Any?) -> Int? {
        if let text = value as? String { return Int(text) }
        guard let number = value as? NSNumber, let whole = Int(exactly: number.doubleValue) else { return nil }
        return whole
    }

    private static func unreadable(_ reason: String) -> GooglePlayFailure { GooglePlayFailure(.rejected, reason) }
}
