/// The outbox's reads and writes besides its triggers, the same in both stores but for placeholders.
extension EventTable {
    /// What ``LedgerEvent/init(texts:)`` reads, as text, in its order. A query ordering by one of them names its
    /// table: PostgreSQL would order by the selected text.
    static let selected = [
        "seq", "event_id", "type", "at_ms", "environment", "original_transaction_id", "product_id", "account_id",
        "facts",
    ].map { "CAST(\($0) AS TEXT)" }.joined(separator: ", ")

    /// Makes endpoint 1 (types 2, environments 3, configured at 4) take events from now on.
    static func configure(_ p: (Int) -> String) -> String {
        """
        INSERT INTO event_endpoints (name, types, environments, active, configured_ms)
            VALUES (\(p(1)), \(p(2)), \(p(3)), 1, \(p(4)))
            ON CONFLICT (name) DO UPDATE SET types = excluded.types, environments = excluded.environments,
                active = 1, configured_ms = excluded.configured_ms
        """
    }

    /// Endpoint 1's deliveries due at 2 that no live claim holds, oldest first, at most 3, each only when every
    /// earlier pending delivery of its purchase is due and unclaimed too: so one purchase's claimed deliveries are
    /// the oldest of its pending ones, in order, and none waits behind one held elsewhere or deferred.
    static func due(_ p: (Int) -> String) -> String {
        """
        SELECT CAST(d.seq AS TEXT) FROM event_deliveries d
            WHERE d.endpoint = \(p(1)) AND d.state = 'pending' AND d.next_attempt_ms <= \(p(2))
            AND (d.claimed_until_ms IS NULL OR d.claimed_until_ms <= \(p(2)))
            AND NOT EXISTS (SELECT 1 FROM event_deliveries e WHERE e.endpoint = d.endpoint AND e.state = 'pending'
                AND e.environment = d.environment AND e.original_transaction_id = d.original_transaction_id
                AND e.seq < d.seq AND (e.next_attempt_ms > \(p(2)) OR e.claimed_until_ms > \(p(2))))
            ORDER BY d.seq LIMIT \(p(3))
        """
    }

    /// Claims endpoint 1's delivery of event 2 until 4 if it is still due and unclaimed at 3; returns its attempts
    /// so far when this call won it.
    static func claim(_ p: (Int) -> String) -> String {
        """
        UPDATE event_deliveries SET claimed_until_ms = \(p(4))
            WHERE endpoint = \(p(1)) AND seq = \(p(2)) AND state = 'pending' AND next_attempt_ms <= \(p(3))
            AND (claimed_until_ms IS NULL OR claimed_until_ms <= \(p(3)))
            RETURNING CAST(attempts AS TEXT)
        """
    }

    /// Event 1.
    static func event(_ p: (Int) -> String) -> String { "SELECT \(selected) FROM events WHERE seq = \(p(1))" }

    /// Settles endpoint 1's pending delivery of event 2 as 3 with outcome 4 at 5, counting the attempt.
    static func settle(_ p: (Int) -> String) -> String {
        """
        UPDATE event_deliveries SET state = \(p(3)), outcome = \(p(4)), settled_ms = \(p(5)), claimed_until_ms = NULL,
            attempts = attempts + 1
            WHERE endpoint = \(p(1)) AND seq = \(p(2)) AND state = 'pending'
        """
    }

    /// Gives back endpoint 1's claim of event 2, not attempted.
    static func release(_ p: (Int) -> String) -> String {
        """
        UPDATE event_deliveries SET claimed_until_ms = NULL
            WHERE endpoint = \(p(1)) AND seq = \(p(2)) AND state = 'pending'
        """
    }

    /// Releases endpoint 1's pending delivery of event 2 for an attempt at 3 with outcome 4, counting the attempt.
    static func deferral(_ p: (Int) -> String) -> String {
        """
        UPDATE event_deliveries SET next_attempt_ms = \(p(3)), outcome = \(p(4)), claimed_until_ms = NULL,
            attempts = attempts + 1
            WHERE endpoint = \(p(1)) AND seq = \(p(2)) AND state = 'pending'
        """
    }

    /// Each endpoint's deliveries still pending (how many, and the oldest one's moment) and given up (how many),
    /// read from the partial indexes.
    static let backlog = """
        SELECT p.endpoint, 'pending', CAST(p.n AS TEXT), CAST((SELECT at_ms FROM events WHERE seq = p.first) AS TEXT)
            FROM (SELECT endpoint, count(*) AS n, min(seq) AS first FROM event_deliveries WHERE state = 'pending'
                GROUP BY endpoint) p
        UNION ALL
        SELECT endpoint, 'expired', CAST(count(*) AS TEXT), NULL FROM event_deliveries WHERE state = 'expired'
            GROUP BY endpoint
        ORDER BY 1, 2
        """

    /// Up to 3 events at or after 1, after sequence number 2, in order.
    static func since(_ p: (Int) -> String) -> String {
        """
        SELECT \(selected) FROM events WHERE at_ms >= \(p(1)) AND seq > \(p(2)) ORDER BY events.seq LIMIT \(p(3))
        """
    }

    /// The events of environment 1, original transaction 2, in order.
    static func byOriginal(_ p: (Int) -> String) -> String {
        """
        SELECT \(selected) FROM events WHERE environment = \(p(1)) AND original_transaction_id = \(p(2))
            ORDER BY events.seq
        """
    }

    /// The deliveries of the events of environment 1, original transaction 2, in order (through the events'
    /// index: the deliveries have none by purchase but for pending ones).
    static func deliveriesByOriginal(_ p: (Int) -> String) -> String {
        """
        SELECT d.endpoint, CAST(d.seq AS TEXT), d.state, CAST(d.attempts AS TEXT), d.outcome
            FROM events e JOIN event_deliveries d ON d.seq = e.seq
            WHERE e.environment = \(p(1)) AND e.original_transaction_id = \(p(2))
            ORDER BY d.seq, d.endpoint
        """
    }

    /// Gives each configured endpoint (endpoint 2, or all when NULL) a delivery, due at 3, of every event at or
    /// after 1 it takes and never had.
    static func replayMissing(_ dialect: LedgerDialect) -> String {
        let p = dialect.placeholder
        return """
            INSERT INTO event_deliveries (seq, endpoint, environment, original_transaction_id, state, attempts,
                next_attempt_ms, outcome)
            SELECT e.seq, n.name, e.environment, e.original_transaction_id, 'pending', 0, \(p(3)), 'replayed'
                FROM events e JOIN event_endpoints n ON n.active = 1 AND \(dialect.listHolds("n.types", "e.type"))
                    AND \(dialect.listHolds("n.environments", "e.environment"))
                WHERE e.at_ms >= \(p(1)) AND n.name = coalesce(\(p(2)), n.name)
            ON CONFLICT DO NOTHING
            """
    }

    /// Makes every delivery of an event at or after 1 to a configured endpoint (endpoint 2, or all when NULL)
    /// pending again from 3, as new; a row for each.
    static func replay(_ p: (Int) -> String) -> String {
        """
        UPDATE event_deliveries SET state = 'pending', attempts = 0, next_attempt_ms = \(p(3)),
            claimed_until_ms = NULL, settled_ms = NULL, outcome = 'replayed'
            WHERE endpoint = coalesce(\(p(2)), endpoint)
            AND endpoint IN (SELECT name FROM event_endpoints WHERE active = 1)
            AND seq IN (SELECT seq FROM events WHERE at_ms >= \(p(1)))
            RETURNING 1
        """
    }
}
