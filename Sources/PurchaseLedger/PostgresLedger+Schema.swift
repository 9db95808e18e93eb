/// The PostgreSQL schema: the same tables as the SQLite ledger, applied once per version under an advisory
/// lock so that gateways starting at the same moment do not race.
extension PostgresLedger {
    /// Any fixed number; every gateway takes the same lock.
    private static let migrationLock = "74657730"

    private static let migrations: [(version: Int, sql: String)] = [
        (
            1,
            """
            CREATE TABLE purchases (
                environment TEXT NOT NULL, purchase_key TEXT NOT NULL, product_id TEXT NOT NULL,
                bundle_id TEXT NOT NULL, original_transaction_id TEXT NOT NULL, latest_transaction_id TEXT NOT NULL,
                web_order_line_item_id TEXT, purchase_date_ms BIGINT, expires_date_ms BIGINT,
                cancellation_date_ms BIGINT, quantity INTEGER NOT NULL, first_seen_ms BIGINT NOT NULL,
                last_seen_ms BIGINT NOT NULL, first_source TEXT NOT NULL, last_source TEXT NOT NULL,
                first_request_id TEXT NOT NULL, PRIMARY KEY (environment, purchase_key));
            CREATE INDEX purchases_by_original ON purchases (environment, original_transaction_id);
            CREATE TABLE transactions (
                environment TEXT NOT NULL, transaction_id TEXT NOT NULL, purchase_key TEXT NOT NULL,
                product_id TEXT NOT NULL, original_transaction_id TEXT NOT NULL, web_order_line_item_id TEXT,
                purchase_date_ms BIGINT, expires_date_ms BIGINT, cancellation_date_ms BIGINT,
                quantity INTEGER NOT NULL, first_seen_ms BIGINT NOT NULL, last_seen_ms BIGINT NOT NULL,
                source TEXT NOT NULL, request_id TEXT NOT NULL, PRIMARY KEY (environment, transaction_id));
            """
        ),
        (
            2,
            """
            CREATE TABLE deliveries (
                id BIGSERIAL PRIMARY KEY, environment TEXT NOT NULL, product_id TEXT NOT NULL,
                original_transaction_id TEXT NOT NULL, content_sha256 TEXT NOT NULL, request_id TEXT NOT NULL,
                delivered_ms BIGINT NOT NULL);
            CREATE INDEX deliveries_by_original ON deliveries (environment, original_transaction_id);
            """
        ),
        (
            3,
            """
            CREATE TABLE notifications (
                notification_uuid TEXT PRIMARY KEY, environment TEXT NOT NULL, notification_type TEXT NOT NULL,
                subtype TEXT, received_ms BIGINT NOT NULL, request_id TEXT NOT NULL);
            """
        ),
        (4, ConsumptionRequestTable.schema(integer: "BIGINT")),
        (5, PurchaseHistoryQueries.notificationsByPurchase),
        (6, BackfillTable.schema(integer: "BIGINT")),
        (7, AccountBindingTable.schema(integer: "BIGINT")),
        (8, FreeGrantTable.schema(integer: "BIGINT")),
        (9, RestoreTable.schema(integer: "BIGINT")),
        (10, StoreFollowUpTable.schema(integer: "BIGINT")),
        (11, StoreHandle.schema(integer: "BIGINT")),
        (12, ConsumptionRequestTable.storeColumns),
        (13, LedgerRevocation.columns(integer: "BIGINT")),
        (14, DeliveryFailureTable.schema(integer: "BIGINT")),
        (15, SubscriptionRenewalTable.schema(integer: "BIGINT")),
        (16, PurchaseHistoryQueries.appTransactions),
        (17, EventTable.schema(.postgres)),
    ]

    static func migrate(_ connection: PostgresConnection) throws(LedgerError) {
        try connection.execute("SELECT pg_advisory_lock(\(migrationLock))")
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock(\(migrationLock))") }
        try connection.execute("CREATE TABLE IF NOT EXISTS storegate_migrations (version INTEGER PRIMARY KEY)")
        let applied = Set(
            try connection.execute("SELECT version FROM storegate_migrations").compactMap { $0[0].flatMap { Int($0) } })
        for migration in migrations where !applied.contains(migration.version) {
            try inTransaction(connection) { () throws(LedgerError) in
                try connection.executeScript(migration.sql)
                try connection.execute(
                    "INSERT INTO storegate_migrations (version) VALUES ($1)", [String(migration.version)])
            }
        }
    }
}
