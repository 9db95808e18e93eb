import Foundation

extension PostgresLedger {
    package func configureEventEndpoints(_ endpoints: [EventSubscription], at: Date) throws(LedgerError) {
        try pool.withConnection { connection throws(LedgerError) in
            try Self.inTransaction(connection) { () throws(LedgerError) in
                try connection.execute("UPDATE event_endpoints SET active = 0")
                for endpoint in endpoints {
                    try connection.execute(
                        EventTable.configure { "$\($0)" },
                        [
                            endpoint.endpoint, EventSubscription.column(endpoint.types),
                            EventSubscription.column(endpoint.environments), LedgerTime.text(at),
                        ])
                }
            }
        }
    }

    /// One transaction under the endpoint's advisory lock: gateways claim an endpoint's deliveries one after
    /// the other, so no two split one purchase's run of deliveries between them.
    package func claimEventDeliveries(endpoint: String, now: Date, lease: TimeInterval, limit: Int)
        throws(LedgerError) -> [EventDeliveryClaim]
    {
        let (at, until) = (LedgerTime.text(now), LedgerTime.text(now + lease))
        return try pool.withConnection { connection throws(LedgerError) in
            try Self.inTransaction(connection) { () throws(LedgerError) in
                try connection.execute("SELECT pg_advisory_xact_lock(\(Self.eventClaimLock), hashtext($1))", [endpoint])
                var claimed: [EventDeliveryClaim] = []
                for case let sequence? in try connection.execute(
                    EventTable.due { "$\($0)" }, [endpoint, at, String(limit)]
                ).compactMap(\.first) {
                    guard
                        let attempts = try connection.execute(
                            EventTable.claim { "$\($0)" }, [endpoint, sequence, at, until]
                        ).first?.first ?? nil,
                        let event = try connection.execute(EventTable.event { "$\($0)" }, [sequence]).first
                            .flatMap(LedgerEvent.init(texts:))
                    else { continue }
                    claimed.append(EventDeliveryClaim(endpoint: endpoint, event: event, attempts: Int(attempts) ?? 0))
                }
                return claimed
            }
        }
    }

    /// The first key of the advisory locks claims take (any fixed number; every gateway takes the same).
    private static let eventClaimLock = "74657731"

    package func releaseEventDelivery(_ claim: EventDeliveryClaim) throws(LedgerError) {
        try execute(EventTable.release { "$\($0)" }, [claim.endpoint, String(claim.event.sequence)])
    }

    package func settleEventDelivery(_ claim: EventDeliveryClaim, as end: EventDeliveryEnd, outcome: String, at: Date)
        throws(LedgerError)
    {
        try execute(
            EventTable.settle { "$\($0)" },
            [claim.endpoint, String(claim.event.sequence), end.rawValue, outcome, LedgerTime.text(at)])
    }

    package func deferEventDelivery(_ claim: EventDeliveryClaim, until nextAttempt: Date, outcome: String)
        throws(LedgerError)
    {
        try execute(
            EventTable.deferral { "$\($0)" },
            [claim.endpoint, String(claim.event.sequence), LedgerTime.text(nextAttempt), outcome])
    }

    package func eventBacklog() throws(LedgerError) -> [EventBacklog] {
        EventBacklog.read(try execute(EventTable.backlog, []))
    }

    package func events(since: Date, after: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try execute(EventTable.since { "$\($0)" }, [LedgerTime.text(since), String(after), String(limit)])
            .compactMap(LedgerEvent.init(texts:))
    }

    package func events(environment: String, originalTransactionId: String) throws(LedgerError) -> [LedgerEvent] {
        try execute(EventTable.byOriginal { "$\($0)" }, [environment, originalTransactionId])
            .compactMap(LedgerEvent.init(texts:))
    }

    package func eventDeliveries(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredEventDelivery]
    {
        try execute(EventTable.deliveriesByOriginal { "$\($0)" }, [environment, originalTransactionId])
            .compactMap(StoredEventDelivery.init(texts:))
    }

    package func replayEvents(since: Date, endpoint: String?, at: Date) throws(LedgerError) -> Int {
        let arguments = [LedgerTime.text(since), endpoint, LedgerTime.text(at)]
        return try pool.withConnection { connection throws(LedgerError) in
            try Self.inTransaction(connection) { () throws(LedgerError) in
                try connection.execute(EventTable.replayMissing(.postgres), arguments)
                return try connection.execute(EventTable.replay { "$\($0)" }, arguments).count
            }
        }
    }

    @discardableResult
    private func execute(_ sql: String, _ parameters: [String?]) throws(LedgerError) -> [[String?]] {
        try pool.withConnection { connection throws(LedgerError) in try connection.execute(sql, parameters) }
    }
}
