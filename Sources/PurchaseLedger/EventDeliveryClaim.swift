/// An event claimed for delivery to one endpoint, under a lease: no other gateway sends it meanwhile.
package struct EventDeliveryClaim: Sendable, Equatable {
    package let endpoint: String
    package let event: LedgerEvent
    /// Attempts made before this one.
    package let attempts: Int
}

/// How an event's delivery to an endpoint ended.
package enum EventDeliveryEnd: String, Sendable {
    /// The receiver acknowledged it.
    case delivered
    /// It could not be delivered within the retry window: kept, counted, and sent again only by a replay.
    case expired
}
