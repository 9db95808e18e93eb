import struct Foundation.Date

/// One endpoint's deliveries not done: those still pending and those given up.
package struct EventBacklog: Sendable, Equatable {
    package let endpoint: String
    package let pending: Int
    /// The moment of the oldest pending event.
    package let oldestPending: Date?
    /// Events it never acknowledged within the retry window.
    package let expired: Int

    package init(endpoint: String, pending: Int, oldestPending: Date?, expired: Int) {
        self.endpoint = endpoint
        self.pending = pending
        self.oldestPending = oldestPending
        self.expired = expired
    }

    /// The backlogs in rows of ``EventTable/backlog``, an endpoint's rows together.
    static func read(_ rows: [[String?]]) -> [EventBacklog] {
        var order: [String] = []
        var byEndpoint: [String: EventBacklog] = [:]
        for row in rows {
            guard row.count == 4, let endpoint = row[0], let count = row[2].flatMap(Int.init) else { continue }
            let known = byEndpoint[endpoint]
            if known == nil { order.append(endpoint) }
            let pending = row[1] == "pending"
            byEndpoint[endpoint] = EventBacklog(
                endpoint: endpoint, pending: pending ? count : known?.pending ?? 0,
                oldestPending: pending ? LedgerTime.date(row[3]) : known?.oldestPending,
                expired: pending ? known?.expired ?? 0 : count)
        }
        return order.compactMap { byEndpoint[$0] }
    }
}
