/// The outbox's SQL, written once for both stores (``LedgerDialect``): the `events` every committed change
/// writes through its trigger, the `event_endpoints` the config names, and each endpoint's `event_deliveries`,
/// claimed under a lease like the stores' follow-ups. Few indexes, as every download writes an event: the
/// deliveries' are partial (pending ones, given-up ones), so delivered rows leave them.
enum EventTable {
    /// Migration 17.
    static func schema(_ dialect: LedgerDialect) -> String {
        let integer = dialect.integer
        let tables = """
            CREATE TABLE events (
                seq \(dialect == .sqlite ? "INTEGER" : "BIGSERIAL") PRIMARY KEY, event_id TEXT NOT NULL,
                type TEXT NOT NULL, at_ms \(integer) NOT NULL, environment TEXT NOT NULL,
                original_transaction_id TEXT NOT NULL, product_id TEXT, account_id TEXT, facts TEXT NOT NULL);
            CREATE INDEX events_by_original ON events (environment, original_transaction_id, seq);
            CREATE TABLE event_endpoints (
                name TEXT PRIMARY KEY, types TEXT NOT NULL, environments TEXT NOT NULL, active INTEGER NOT NULL,
                configured_ms \(integer) NOT NULL);
            CREATE TABLE event_deliveries (
                seq \(integer) NOT NULL, endpoint TEXT NOT NULL, environment TEXT NOT NULL,
                original_transaction_id TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL,
                next_attempt_ms \(integer) NOT NULL, claimed_until_ms \(integer), settled_ms \(integer), outcome TEXT,
                PRIMARY KEY (seq, endpoint));
            CREATE INDEX event_deliveries_pending ON event_deliveries (endpoint, seq) WHERE state = 'pending';
            CREATE INDEX event_deliveries_pending_by_purchase
                ON event_deliveries (endpoint, environment, original_transaction_id, seq) WHERE state = 'pending';
            CREATE INDEX event_deliveries_expired ON event_deliveries (endpoint) WHERE state = 'expired';
            CREATE TABLE ledger_quiet (reason TEXT NOT NULL);
            ALTER TABLE notifications ADD COLUMN expired_ms \(integer);
            """
        return ([tables] + triggers.map { $0.sql(dialect) }).joined(separator: "\n")
    }

    /// The product of the purchase NEW names, its latest period's.
    private static let purchasedProduct = """
        (SELECT product_id FROM purchases WHERE environment = NEW.environment \
        AND original_transaction_id = NEW.original_transaction_id \
        ORDER BY coalesce(expires_date_ms, purchase_date_ms, 0) DESC LIMIT 1)
        """

    /// Every change that means an event, and the fan-out of each event to the endpoints that take it.
    static var triggers: [EventTrigger] {
        [
            EventTrigger(name: "events_purchase_inserted", table: "purchases", operation: "INSERT") { dialect in
                [
                    EventTrigger.event(
                        type: """
                            CASE WHEN EXISTS (SELECT 1 FROM purchases p WHERE p.environment = NEW.environment \
                            AND p.original_transaction_id = NEW.original_transaction_id AND p.purchase_key <> NEW.purchase_key \
                            AND coalesce(p.purchase_date_ms, 0) < coalesce(NEW.purchase_date_ms, 0)) \
                            THEN 'purchase.renewed' ELSE 'purchase.recorded' END
                            """,
                        at: "NEW.first_seen_ms", product: "NEW.product_id",
                        facts: [
                            ("transaction_id", "NEW.latest_transaction_id"),
                            ("purchase_date", dialect.iso("NEW.purchase_date_ms")),
                            ("expires_date", dialect.iso("NEW.expires_date_ms")), ("quantity", "NEW.quantity"),
                            ("source", "NEW.first_source"), ("request_id", "NEW.first_request_id"),
                        ], dialect: dialect),
                    revoked(
                        source: "NEW.first_source", at: "NEW.first_seen_ms",
                        when: "NEW.cancellation_date_ms IS NOT NULL",
                        dialect),
                ]
            },
            EventTrigger(
                name: "events_purchase_cancellation", table: "purchases", operation: "UPDATE OF cancellation_date_ms",
                condition: "(OLD.cancellation_date_ms IS NULL) <> (NEW.cancellation_date_ms IS NULL)"
            ) { dialect in
                [
                    revoked(
                        source: "NEW.last_source", at: "NEW.last_seen_ms", when: "NEW.cancellation_date_ms IS NOT NULL",
                        dialect),
                    EventTrigger.event(
                        type: "'purchase.reinstated'", at: "NEW.last_seen_ms", product: "NEW.product_id",
                        facts: [("transaction_id", "NEW.latest_transaction_id"), ("source", "NEW.last_source")],
                        condition: "NEW.cancellation_date_ms IS NULL", dialect: dialect),
                ]
            },
            EventTrigger(
                name: "events_part_revoked_inserted", table: "transactions", operation: "INSERT",
                condition: "NEW.revoked_quantity IS NOT NULL AND NEW.cancellation_date_ms IS NULL"
            ) { dialect in [partlyRevoked(dialect)] },
            EventTrigger(
                name: "events_part_revoked", table: "transactions", operation: "UPDATE OF revoked_quantity",
                condition: """
                    coalesce(NEW.revoked_quantity, 0) <> coalesce(OLD.revoked_quantity, 0) \
                    AND NEW.cancellation_date_ms IS NULL AND OLD.cancellation_date_ms IS NULL
                    """
            ) { dialect in
                [
                    partlyRevoked(dialect)
                        + " WHERE coalesce(NEW.revoked_quantity, 0) > coalesce(OLD.revoked_quantity, 0)",
                    // A reversal of the part refund (REFUND_REVERSED clears it).
                    EventTrigger.event(
                        type: "'purchase.reinstated'", at: "NEW.last_seen_ms", product: "NEW.product_id",
                        facts: [("transaction_id", "NEW.transaction_id"), ("source", "NEW.source")],
                        condition: "NEW.revoked_quantity IS NULL", dialect: dialect),
                ]
            },
            EventTrigger(
                name: "events_subscription_expired", table: "notifications", operation: "UPDATE OF expired_ms",
                condition:
                    "OLD.expired_ms IS NULL AND NEW.expired_ms IS NOT NULL AND NEW.original_transaction_id IS NOT NULL"
            ) { dialect in
                [
                    EventTrigger.event(
                        type: "'purchase.expired'", at: "NEW.expired_ms", product: purchasedProduct,
                        facts: [
                            (
                                "expires_date",
                                dialect.iso(
                                    """
                                    (SELECT max(expires_date_ms) FROM purchases WHERE environment = NEW.environment \
                                    AND original_transaction_id = NEW.original_transaction_id)
                                    """)
                            ),
                            ("notification_type", "NEW.notification_type"), ("subtype", "NEW.subtype"),
                        ], dialect: dialect)
                ]
            },
            EventTrigger(name: "events_content_delivered", table: "deliveries", operation: "INSERT") { dialect in
                [
                    EventTrigger.event(
                        type: "'content.delivered'", at: "NEW.delivered_ms", product: "NEW.product_id",
                        facts: [("content_sha256", "NEW.content_sha256"), ("request_id", "NEW.request_id")],
                        dialect: dialect)
                ]
            },
            EventTrigger(
                name: "events_binding_changed", table: "account_binding_events", operation: "INSERT",
                condition: "NEW.change <> 'refused'"
            ) { dialect in
                [
                    EventTrigger.event(
                        type: "'account.binding_changed'", at: "NEW.at_ms", product: purchasedProduct,
                        facts: [
                            ("change", "NEW.change"), ("origin", "NEW.origin"),
                            ("other_accounts", "NEW.other_accounts"),
                            ("request_id", "NEW.request_id"),
                        ], account: "NEW.account_id", dialect: dialect)
                ]
            },
            EventTrigger(
                name: "events_refund_request_settled", table: "consumption_requests", operation: "UPDATE OF state",
                condition: "OLD.state = 'pending' AND NEW.state <> 'pending'"
            ) { dialect in
                [
                    EventTrigger.event(
                        type: """
                            CASE WHEN NEW.state = 'answered' THEN 'refund_request.answered' \
                            ELSE 'refund_request.unanswered' END
                            """,
                        at: "NEW.settled_ms", product: "NEW.product_id",
                        facts: [
                            ("transaction_id", "NEW.transaction_id"), ("requested_at", dialect.iso("NEW.requested_ms")),
                            ("outcome", "NEW.outcome"),
                        ], dialect: dialect)
                ]
            },
            EventTrigger(
                name: "events_follow_up_settled", table: "store_follow_ups", operation: "UPDATE OF state",
                condition: "OLD.state = 'pending' AND NEW.state <> 'pending'"
            ) { dialect in
                [
                    EventTrigger.event(
                        type: """
                            CASE WHEN NEW.state = 'done' THEN 'store_follow_up.done' ELSE 'store_follow_up.abandoned' END
                            """,
                        at: "NEW.settled_ms", product: "NEW.product_id",
                        facts: [("action", "NEW.action"), ("outcome", "NEW.outcome")], dialect: dialect)
                ]
            },
            EventTrigger(name: "events_fan_out", table: "events", operation: "INSERT") { dialect in
                [
                    """
                    INSERT INTO event_deliveries (seq, endpoint, environment, original_transaction_id, state, attempts,
                        next_attempt_ms)
                    SELECT NEW.seq, name, NEW.environment, NEW.original_transaction_id, 'pending', 0, NEW.at_ms
                    FROM event_endpoints WHERE active = 1 AND \(dialect.listHolds("types", "NEW.type"))
                        AND \(dialect.listHolds("environments", "NEW.environment"))
                    """
                ]
            },
        ]
    }

    /// The event of a transaction of which the store took back some items but not all (a prorated refund of a
    /// consumable pack): the purchase stays.
    private static func partlyRevoked(_ dialect: LedgerDialect) -> String {
        EventTrigger.event(
            type: "'purchase.partially_revoked'", at: "NEW.last_seen_ms", product: "NEW.product_id",
            facts: [
                ("transaction_id", "NEW.transaction_id"), ("revocation_date", dialect.iso("NEW.revocation_date_ms")),
                ("reason", "NEW.revocation_type"), ("revocation_percentage", "NEW.revocation_percentage"),
                ("quantity", "NEW.quantity"), ("revoked_quantity", "NEW.revoked_quantity"), ("source", "NEW.source"),
            ], dialect: dialect)
    }

    /// The event of a purchase whose access the store or an operator ended before its time (a refund, a family
    /// member's access revoked, a voided purchase, a revoked free grant), written when `condition` holds.
    private static func revoked(source: String, at: String, when condition: String, _ dialect: LedgerDialect)
        -> String
    {
        EventTrigger.event(
            type: "'purchase.revoked'", at: at, product: "NEW.product_id",
            facts: [
                ("transaction_id", "NEW.latest_transaction_id"),
                ("revocation_date", dialect.iso("NEW.cancellation_date_ms")),
                (
                    "reason",
                    """
                    (SELECT revocation_type FROM transactions WHERE environment = NEW.environment \
                    AND transaction_id = NEW.latest_transaction_id)
                    """
                ),
                ("source", source),
            ], condition: condition, dialect: dialect)
    }
}
