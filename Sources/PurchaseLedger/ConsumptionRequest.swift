import struct Foundation.Date

/// A store's question about a purchase whose refund a customer asked for (the App Store's CONSUMPTION_REQUEST,
/// Google Play's pending refund review): recorded with its notification, so it exists once however often the
/// store sends it, then answered once by the store module that asked.
package struct ConsumptionRequest: Sendable, Equatable {
    /// The notification that asked, so a repeat of it asks nothing new.
    package let notificationUUID: String
    /// The store module that answers it (`app-store`, `google-play`).
    package let store: String
    package let environment: String
    /// The transaction the customer asked to have refunded.
    package let transactionId: String
    package let originalTransactionId: String
    package let productId: String
    /// When the store asked: its answer window counts from here.
    package let requestedAt: Date
    /// The app, and the store's handle for its answer (Google's pending refund token), for the store's call:
    /// kept for it alone, never logged or shown.
    package let app: String?
    package let subject: String?
    /// Attempts to answer so far.
    package let attempts: Int

    package init(
        notificationUUID: String, store: String, environment: String, transactionId: String,
        originalTransactionId: String, productId: String, requestedAt: Date, app: String? = nil,
        subject: String? = nil, attempts: Int = 0
    ) {
        self.notificationUUID = notificationUUID
        self.store = store
        self.app = app
        self.subject = subject
        self.environment = environment
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.requestedAt = requestedAt
        self.attempts = attempts
    }

    /// The row of the `consumption_requests` table as first recorded, in `LedgerTable` column order.
    func row() -> [String?] {
        let requested = LedgerTime.text(requestedAt)
        return [
            notificationUUID, environment, transactionId, originalTransactionId, productId, requested,
            ConsumptionRequestState.pending.rawValue, "0", requested, nil, nil, nil, nil, store, app, subject,
        ]
    }
}

/// Where a consumption request stands.
package enum ConsumptionRequestState: String, Sendable {
    /// Not settled yet: it is claimed, or waits for its next attempt.
    case pending
    /// The store accepted the answer.
    case answered
    /// Settled without an answer (no consent, the window passed, the store refused it); `outcome` says why.
    case unanswered
}

/// A consumption request as the ledger holds it, for support and tests.
package struct StoredConsumptionRequest: Sendable, Equatable {
    package let request: ConsumptionRequest
    package let state: ConsumptionRequestState
    /// When it was settled.
    package let settledAt: Date?
    /// The body sent to the store, when one was.
    package let answer: String?
    /// The store's verdict, or why nothing was sent, or the last failure while pending.
    package let outcome: String?

    package init(
        request: ConsumptionRequest, state: ConsumptionRequestState, settledAt: Date?, answer: String?,
        outcome: String?
    ) {
        self.request = request
        self.state = state
        self.settledAt = settledAt
        self.answer = answer
        self.outcome = outcome
    }
}
