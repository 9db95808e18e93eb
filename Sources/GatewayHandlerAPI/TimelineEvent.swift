import Foundation

/// One moment in a purchase's life as the ledger tells it, for support.
public struct TimelineEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case bought, recorded, downloaded, notified
        /// A download the gateway failed to deliver (it answered a server error).
        case downloadFailed = "download failed"
        case refundRequested = "refund requested"
        case refundAnswered = "refund answer"
        case refunded
        case account
        case granted
        case grantRevoked = "grant revoked"
        case restored
        /// How a subscription renews, as the store said it (auto-renewal, billing retry, grace period, price
        /// increase).
        case renewal
        /// Something the store was told about the purchase (Google Play's acknowledgement, a consumption).
        case storeFollowUp = "store follow-up"
        /// An event written for the app's backends, and how its delivery to each endpoint went.
        case event
    }

    public let at: Date
    public let kind: Kind
    public let detail: String

    package init(at: Date, kind: Kind, detail: String) {
        self.at = at
        self.kind = kind
        self.detail = detail
    }
}
