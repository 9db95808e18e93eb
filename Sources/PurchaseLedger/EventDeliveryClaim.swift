/// An event claimed for delivery to one endpoint, under a lease: no other gateway sends it meanwhile.
package struct EventDeliveryClaim: Sendable, Equatable {
    package let endpoint: String
    package let event: LedgerEvent
    /// Attempts made before this one.
    package let attempts: Int
}

/// An event's delivery to one endpoint as the ledger holds it, for support.
package struct StoredEventDelivery: Sendable, Equatable {
    package let endpoint: String
    package let sequence: Int64
    /// `pending`, `delivered` or `expired`.
    package let state: String
    package let attempts: Int
    /// The last attempt's outcome, in words.
    package let outcome: String?

    init?(texts row: [String?]) {
        guard row.count == 5, let endpoint = row[0], let sequence = row[1].flatMap(Int64.init), let state = row[2]
        else { return nil }
        self.endpoint = endpoint
        self.sequence = sequence
        self.state = state
        attempts = row[3].flatMap(Int.init) ?? 0
        outcome = row[4]
    }
}

/// How an event's delivery to an endpoint ended.
package enum EventDeliveryEnd: String, Sendable {
    /// The receiver acknowledged it.
    case delivered
    /// It could not be delivered within the retry window: kept, counted, and sent again only by a replay.
    case expired
}
