import Foundation
import GRDB

extension SQLiteLedger {
    /// The schema, one migration per released change; never edit a migration that has shipped.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 purchases and transactions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE purchases (
                        environment TEXT NOT NULL,
                        purchase_key TEXT NOT NULL,
                        product_id TEXT NOT NULL,
                        bundle_id TEXT NOT NULL,
                        original_transaction_id TEXT NOT NULL,
                        latest_transaction_id TEXT NOT NULL,
                        web_order_line_item_id TEXT,
                        purchase_date_ms INTEGER,
                        expires_date_ms INTEGER,
                        cancellation_date_ms INTEGER,
                        quantity INTEGER NOT NULL,
                        first_seen_ms INTEGER NOT NULL,
                        last_seen_ms INTEGER NOT NULL,
                        first_source TEXT NOT NULL,
                        last_source TEXT NOT NULL,
                        first_request_id TEXT NOT NULL,
                        PRIMARY KEY (environment, purchase_key)
                    );
                    CREATE INDEX purchases_by_original ON purchases (environment, original_transaction_id);
                    CREATE TABLE transactions (
                        environment TEXT NOT NULL,
                        transaction_id TEXT NOT NULL,
                        purchase_key TEXT NOT NULL,
                        product_id TEXT NOT NULL,
                        original_transaction_id TEXT NOT NULL,
                        web_order_line_item_id TEXT,
                        purchase_date_ms INTEGER,
                        expires_date_ms INTEGER,
                        cancellation_date_ms INTEGER,
                        quantity INTEGER NOT NULL,
                        first_seen_ms INTEGER NOT NULL,
                        last_seen_ms INTEGER NOT NULL,
                        source TEXT NOT NULL,
                        request_id TEXT NOT NULL,
                        PRIMARY KEY (environment, transaction_id)
                    );
                    """
            )
        }
        migrator.registerMigration("v2 deliveries") { db in
            try db.execute(
                sql: """
                    CREATE TABLE deliveries (
                        id INTEGER PRIMARY KEY,
                        environment TEXT NOT NULL,
                        product_id TEXT NOT NULL,
                        original_transaction_id TEXT NOT NULL,
                        content_sha256 TEXT NOT NULL,
                        request_id TEXT NOT NULL,
                        delivered_ms INTEGER NOT NULL
                    );
                    CREATE INDEX deliveries_by_original ON deliveries (environment, original_transaction_id);
                    """
            )
        }
        migrator.registerMigration("v3 notifications") { db in
            try db.execute(
                sql: """
                    CREATE TABLE notifications (
                        notification_uuid TEXT PRIMARY KEY,
                        environment TEXT NOT NULL,
                        notification_type TEXT NOT NULL,
                        subtype TEXT,
                        received_ms INTEGER NOT NULL,
                        request_id TEXT NOT NULL
                    );
                    """
            )
        }
        migrator.registerMigration("v4 consumption requests") { db in
            try db.execute(sql: ConsumptionRequestTable.schema(integer: "INTEGER"))
        }
        migrator.registerMigration("v5 notifications by purchase") { db in
            try db.execute(sql: PurchaseHistoryQueries.notificationsByPurchase)
        }
        migrator.registerMigration("v6 backfills") { db in
            try db.execute(sql: BackfillTable.schema(integer: "INTEGER"))
        }
        migrator.registerMigration("v7 account bindings") { db in
            try db.execute(sql: AccountBindingTable.schema(integer: "INTEGER"))
        }
        migrator.registerMigration("v8 free grants") { db in
            try db.execute(sql: FreeGrantTable.schema(integer: "INTEGER"))
        }
        migrator.registerMigration("v9 restores") { db in
            try db.execute(sql: RestoreTable.schema(integer: "INTEGER"))
        }
        migrator.registerMigration("v10 store follow-ups") { db in
            try db.execute(sql: StoreFollowUpTable.schema(integer: "INTEGER"))
        }
        migrator.registerMigration("v11 store handles") { db in
            try db.execute(sql: StoreHandle.schema(integer: "INTEGER"))
        }
        migrator.registerMigration("v12 consumption requests by store") { db in
            try db.execute(sql: ConsumptionRequestTable.storeColumns)
        }
        migrator.registerMigration("v13 family sharing and revocations") { db in
            try db.execute(sql: LedgerRevocation.columns(integer: "INTEGER"))
        }
        migrator.registerMigration("v14 delivery failures") { db in
            try db.execute(sql: DeliveryFailureTable.schema(integer: "INTEGER"))
        }
        migrator.registerMigration("v15 subscription renewals") { db in
            try db.execute(sql: SubscriptionRenewalTable.schema(integer: "INTEGER"))
        }
        migrator.registerMigration("v16 app transactions") { db in
            try db.execute(sql: PurchaseHistoryQueries.appTransactions)
        }
        migrator.registerMigration("v17 events") { db in
            try db.execute(sql: EventTable.schema(.sqlite))
        }
        return migrator
    }
}
