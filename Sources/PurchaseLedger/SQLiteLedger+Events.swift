import Foundation
import GRDB

extension SQLiteLedger {
    package func configureEventEndpoints(_ endpoints: [EventSubscription], at: Date) throws(LedgerError) {
        try guarded {
            try pool.write { db in
                try db.execute(sql: "UPDATE event_endpoints SET active = 0")
                for endpoint in endpoints {
                    try db.execute(
                        sql: EventTable.configure { _ in "?" },
                        arguments: [
                            endpoint.endpoint, EventSubscription.column(endpoint.types),
                            EventSubscription.column(endpoint.environments), LedgerTime.milliseconds(at),
                        ])
                }
            }
        }
    }

    /// One write transaction: no other caller claims meanwhile.
    package func claimEventDeliveries(endpoint: String, now: Date, lease: TimeInterval, limit: Int)
        throws(LedgerError) -> [EventDeliveryClaim]
    {
        let (at, until) = (LedgerTime.milliseconds(now), LedgerTime.milliseconds(now + lease))
        return try guarded {
            try pool.write { db in
                try String.fetchAll(db, sql: EventTable.due { "?\($0)" }, arguments: [endpoint, at, limit])
                    .compactMap { sequence in
                        guard
                            let attempts = try String.fetchOne(
                                db, sql: EventTable.claim { "?\($0)" }, arguments: [endpoint, sequence, at, until]),
                            let row = try Row.fetchOne(db, sql: EventTable.event { "?\($0)" }, arguments: [sequence]),
                            let event = LedgerEvent(texts: Self.texts(row))
                        else { return nil }
                        return EventDeliveryClaim(endpoint: endpoint, event: event, attempts: Int(attempts) ?? 0)
                    }
            }
        }
    }

    package func releaseEventDelivery(_ claim: EventDeliveryClaim) throws(LedgerError) {
        try write(EventTable.release { "?\($0)" }, [claim.endpoint, String(claim.event.sequence)])
    }

    package func settleEventDelivery(_ claim: EventDeliveryClaim, as end: EventDeliveryEnd, outcome: String, at: Date)
        throws(LedgerError)
    {
        try write(
            EventTable.settle { "?\($0)" },
            [claim.endpoint, String(claim.event.sequence), end.rawValue, outcome, LedgerTime.text(at)])
    }

    package func deferEventDelivery(_ claim: EventDeliveryClaim, until nextAttempt: Date, outcome: String)
        throws(LedgerError)
    {
        try write(
            EventTable.deferral { "?\($0)" },
            [claim.endpoint, String(claim.event.sequence), LedgerTime.text(nextAttempt), outcome])
    }

    package func eventBacklog() throws(LedgerError) -> [EventBacklog] {
        EventBacklog.read(try readTexts(EventTable.backlog, []))
    }

    package func events(since: Date, after: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try readTexts(EventTable.since { "?\($0)" }, [LedgerTime.text(since), String(after), String(limit)])
            .compactMap(LedgerEvent.init(texts:))
    }

    package func events(environment: String, originalTransactionId: String) throws(LedgerError) -> [LedgerEvent] {
        try readTexts(EventTable.byOriginal { "?\($0)" }, [environment, originalTransactionId])
            .compactMap(LedgerEvent.init(texts:))
    }

    package func eventDeliveries(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredEventDelivery]
    {
        try readTexts(EventTable.deliveriesByOriginal { "?\($0)" }, [environment, originalTransactionId])
            .compactMap(StoredEventDelivery.init(texts:))
    }

    package func replayEvents(since: Date, endpoint: String?, at: Date) throws(LedgerError) -> Int {
        let arguments: StatementArguments = [LedgerTime.milliseconds(since), endpoint, LedgerTime.milliseconds(at)]
        return try guarded {
            try pool.write { db in
                try db.execute(sql: EventTable.replayMissing(.sqlite), arguments: arguments)
                return try Row.fetchAll(db, sql: EventTable.replay { "?\($0)" }, arguments: arguments).count
            }
        }
    }

    private func write(_ sql: String, _ arguments: [String?]) throws(LedgerError) {
        try guarded { try pool.write { db in try db.execute(sql: sql, arguments: StatementArguments(arguments)) } }
    }

    private func readTexts(_ sql: String, _ arguments: [String?]) throws(LedgerError) -> [[String?]] {
        try guarded {
            try pool.read { db in
                try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map(Self.texts)
            }
        }
    }
}
