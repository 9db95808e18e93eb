import struct Foundation.Date

/// A store asking, in a notification, what was delivered of a purchase whose refund a customer asked for (the
/// App Store's CONSUMPTION_REQUEST, Google Play's pending refund review): recorded as a ``ConsumptionRequest``
/// with the notification, and answered by the store module's ``EvidenceResponder``.
package struct EvidenceAsked: Sendable {
    /// The store module that answers (`app-store`, `google-play`).
    package let store: String
    /// When the store asked: its answer window counts from here.
    package let requestedAt: Date
    /// The transaction asked about when the notification carries none of its own (Google names an order only),
    /// found in the ledger; nil for the notification's first transaction.
    package let transactionId: String?
    /// The app, and the store's handle for the answer (Google's pending refund token): kept for the store's
    /// call alone, never logged or shown.
    package let app: String?
    package let subject: String?

    package init(
        store: String, requestedAt: Date, transactionId: String? = nil, app: String? = nil, subject: String? = nil
    ) {
        self.store = store
        self.requestedAt = requestedAt
        self.transactionId = transactionId
        self.app = app
        self.subject = subject
    }
}
