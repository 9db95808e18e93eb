import struct Foundation.Date

/// Something a store expects the server to tell it about a recorded purchase (Google Play's acknowledgement, a
/// consumable's consumption): recorded with the purchase, in the same transaction, so it exists exactly when the
/// purchase does, then done once by whichever gateway claims it, retried with backoff across restarts.
package struct StoreFollowUp: Sendable, Equatable {
    /// Names it among all follow-ups, so recording the purchase again adds nothing.
    package let key: String
    /// The store module that does it (`google-play`).
    package let store: String
    /// What the store is told, in the store module's words (`acknowledge`, `consume`).
    package let action: String
    package let environment: String
    package let originalTransactionId: String
    /// The catalog's product.
    package let productId: String
    /// The app, the store's product id and the store's handle of the purchase (a Google purchase token), for the
    /// store's call: kept for it alone, never logged or shown.
    package let app: String
    package let storeProductId: String
    package let subject: String
    /// Due only once content of the purchase was delivered (a consumable is consumed after its download).
    package let afterDelivery: Bool
    package let createdAt: Date
    /// Attempts so far.
    package let attempts: Int

    package init(
        key: String, store: String, action: String, environment: String, originalTransactionId: String,
        productId: String, app: String, storeProductId: String, subject: String, afterDelivery: Bool,
        createdAt: Date = Date(), attempts: Int = 0
    ) {
        self.key = key
        self.store = store
        self.action = action
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.app = app
        self.storeProductId = storeProductId
        self.subject = subject
        self.afterDelivery = afterDelivery
        self.createdAt = createdAt
        self.attempts = attempts
    }

    /// The row of the `store_follow_ups` table as first recorded, in `LedgerTable` column order.
    func row() -> [String?] {
        let created = LedgerTime.text(createdAt)
        return [
            key, store, action, environment, originalTransactionId, productId, app, storeProductId, subject,
            afterDelivery ? "1" : "0",
            afterDelivery ? StoreFollowUpState.waiting.rawValue : StoreFollowUpState.pending.rawValue, "0",
            afterDelivery ? nil : created, nil, created, nil, nil,
        ]
    }
}

/// Where a follow-up stands.
package enum StoreFollowUpState: String, Sendable {
    /// Waits for a delivery of the purchase's content.
    case waiting
    /// Due, claimed, or waiting for its next attempt.
    case pending
    /// The store took it.
    case done
    /// Given up: the store refused it for good (the purchase is gone); `outcome` says why.
    case abandoned
}

/// A follow-up as the ledger holds it, for support, metrics and tests.
package struct StoredFollowUp: Sendable, Equatable {
    package let followUp: StoreFollowUp
    package let state: StoreFollowUpState
    /// When it was done or given up.
    package let settledAt: Date?
    /// The store's verdict, or the last failure while pending.
    package let outcome: String?

    package init(followUp: StoreFollowUp, state: StoreFollowUpState, settledAt: Date?, outcome: String?) {
        self.followUp = followUp
        self.state = state
        self.settledAt = settledAt
        self.outcome = outcome
    }
}

/// How many of a store's follow-ups of one action are pending, for metrics.
package struct FollowUpBacklog: Sendable, Equatable {
    package let action: String
    package let pending: Int
    /// When the oldest pending one was recorded.
    package let oldest: Date

    package init(action: String, pending: Int, oldest: Date) {
        self.action = action
        self.pending = pending
        self.oldest = oldest
    }

    /// A row of ``StoreFollowUpTable/backlog(_:)``.
    init?(_ row: [String?]) {
        guard row.count == 3, let action = row[0], let pending = row[1].flatMap(Int.init),
            let oldest = LedgerTime.date(row[2])
        else { return nil }
        self.init(action: action, pending: pending, oldest: oldest)
    }
}
