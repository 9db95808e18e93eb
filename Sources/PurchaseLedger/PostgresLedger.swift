import Foundation

/// The ledger in PostgreSQL, shared by several gateways. Idempotency is the database's: unique keys and
/// `ON CONFLICT`, so two gateways restoring the same receipt at once still make one row per purchase and
/// agree on what was new. Every `record` is one transaction on one pooled connection.
package final class PostgresLedger: PurchaseLedger {
    let pool: PostgresPool

    /// Connects (lazily, up to `poolSize` connections) and brings the schema up to date under an advisory
    /// lock, so gateways starting together migrate once.
    package init(url: String, poolSize: Int = 16) throws(LedgerError) {
        pool = PostgresPool(url: url, size: poolSize)
        try pool.withConnection { connection throws(LedgerError) in try Self.migrate(connection) }
    }

    package func record(_ batch: LedgerBatch) throws(LedgerError) -> RecordOutcome {
        let purchases = batch.purchases
        let followUpInsert = LedgerTable.storeFollowUps.insertStatement { "$\($0)" }
        let handleInsert = LedgerTable.storeHandles.insertStatement { "$\($0)" }
        let statements =
            Self.recordStatements(purchases: purchases, batch: batch)
            + batch.followUps.map { Statement(sql: followUpInsert, parameters: $0.row()) }
            + batch.handles.map { Statement(sql: handleInsert, parameters: $0.row(at: batch.recordedAt)) }
        let recorded = try pool.withConnection { connection throws(LedgerError) in
            // A single statement is atomic by itself; more need a transaction around them.
            let run = { () throws(LedgerError) -> Int in
                var recorded = 0
                for statement in statements {
                    recorded += try connection.execute(statement.sql, statement.parameters).filter { $0.first == "t" }
                        .count
                }
                return recorded
            }
            return statements.count > 1 ? try Self.inTransaction(connection, run) : try run()
        }
        return RecordOutcome(recorded: recorded, known: purchases.count - recorded)
    }

    package func recordNotification(_ notification: LedgerNotification) throws(LedgerError) -> Bool {
        let statements = Self.recordStatements(purchases: notification.batch.purchases, batch: notification.batch)
        let row = notification.row(receivedMilliseconds: LedgerTime.milliseconds(notification.batch.recordedAt))
        return try pool.withConnection { connection throws(LedgerError) in
            try Self.inTransaction(connection) { () throws(LedgerError) in
                let insert = LedgerTable.notifications.insertStatement { "$\($0)" } + " RETURNING 1"
                guard !(try connection.execute(insert, row)).isEmpty else { return false }
                for statement in statements { try connection.execute(statement.sql, statement.parameters) }
                for statement in notification.updates(placeholder: { "$\($0)" }) {
                    try connection.execute(statement.sql, statement.arguments)
                }
                for insert in [
                    notification.consumptionRequestInsert(placeholder: { "$\($0)" }),
                    notification.renewalInsert(placeholder: { "$\($0)" }),
                ].compactMap({ $0 }) {
                    try connection.execute(insert.sql, insert.arguments)
                }
                return true
            }
        }
    }

    @discardableResult
    package func recordDelivery(_ delivery: Delivery) throws(LedgerError) -> Bool {
        // One statement, so one round trip and atomic by itself: the delivery, and the follow-ups it makes due.
        try pool.withConnection { connection throws(LedgerError) in
            !(try connection.execute(
                """
                WITH delivered AS (
                    INSERT INTO deliveries (environment, product_id, original_transaction_id, content_sha256,
                        request_id, delivered_ms) VALUES ($1, $4, $2, $5, $6, $3))
                \(StoreFollowUpTable.delivered { "$\($0)" })
                """,
                [
                    delivery.environment, delivery.originalTransactionId, LedgerTime.text(delivery.deliveredAt),
                    delivery.productId, delivery.contentSHA256, delivery.requestId,
                ]
            )).isEmpty
        }
    }

    package func deliveries(environment: String, originalTransactionId: String) throws(LedgerError) -> [Delivery] {
        try pool.withConnection { connection throws(LedgerError) in
            try connection.execute(
                """
                SELECT environment, product_id, original_transaction_id, content_sha256, request_id, delivered_ms
                FROM deliveries WHERE environment = $1 AND original_transaction_id = $2 ORDER BY id
                """,
                [environment, originalTransactionId]
            ).map { row in
                Delivery(
                    environment: row[0] ?? "", productId: row[1] ?? "", originalTransactionId: row[2] ?? "",
                    contentSHA256: row[3] ?? "", requestId: row[4] ?? "", deliveredAt: LedgerTime.date(row[5]) ?? Date()
                )
            }
        }
    }

    package func purchases(environment: String, originalTransactionId: String) throws(LedgerError) -> [StoredPurchase] {
        try pool.withConnection { connection throws(LedgerError) in
            try connection.execute(
                """
                SELECT \(StoredPurchase.columns.joined(separator: ", "))
                FROM purchases WHERE environment = $1 AND original_transaction_id = $2
                ORDER BY coalesce(expires_date_ms, purchase_date_ms, 0) DESC, purchase_key
                """,
                [environment, originalTransactionId]
            ).map(StoredPurchase.init(texts:))
        }
    }

    package func counts() throws(LedgerError) -> LedgerCounts {
        try pool.withConnection { connection throws(LedgerError) in
            let row = try connection.execute(
                "SELECT (SELECT count(*) FROM purchases), (SELECT count(*) FROM transactions)"
            ).first
            return LedgerCounts(purchases: Int(row?[0] ?? "") ?? 0, transactions: Int(row?[1] ?? "") ?? 0)
        }
    }

    package func checkHealth() throws(LedgerError) {
        try pool.withConnection { connection throws(LedgerError) in _ = try connection.execute("SELECT 1") }
    }

    static func inTransaction<T>(_ connection: PostgresConnection, _ body: () throws(LedgerError) -> T)
        throws(LedgerError) -> T
    {
        try connection.execute("BEGIN")
        do {
            let value = try body()
            try connection.execute("COMMIT")
            return value
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

}
