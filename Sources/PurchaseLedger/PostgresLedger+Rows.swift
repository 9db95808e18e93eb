/// The statements behind `record`, each run inside the caller's transaction.
extension PostgresLedger {
    /// Inserts a purchase seen for the first time; false when another writer (or an earlier batch) has it.
    static func insertPurchase(_ purchase: LedgerTransaction, batch: LedgerBatch, on connection: PostgresConnection)
        throws(LedgerError) -> Bool
    {
        let now = String(milliseconds(batch.recordedAt))
        let inserted = try connection.execute(
            """
            INSERT INTO purchases (environment, purchase_key, product_id, bundle_id, original_transaction_id,
                latest_transaction_id, web_order_line_item_id, purchase_date_ms, expires_date_ms,
                cancellation_date_ms, quantity, first_seen_ms, last_seen_ms, first_source, last_source,
                first_request_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $13, $14)
            ON CONFLICT (environment, purchase_key) DO NOTHING
            RETURNING 1
            """,
            [
                purchase.environment, purchase.purchaseKey.rawValue, purchase.productId, purchase.bundleId,
                purchase.originalTransactionId, purchase.transactionId, purchase.webOrderLineItemId,
                purchase.purchaseDate.map { String(milliseconds($0)) }, purchase.expiresDate.map { String(milliseconds($0)) },
                purchase.cancellationDate.map { String(milliseconds($0)) }, String(purchase.quantity), now,
                batch.source.rawValue, batch.requestId,
            ]
        )
        return !inserted.isEmpty
    }

    /// Refreshes a known purchase with the same rules as the SQLite ledger.
    static func updatePurchase(_ purchase: LedgerTransaction, batch: LedgerBatch, on connection: PostgresConnection)
        throws(LedgerError)
    {
        try connection.execute(
            """
            UPDATE purchases SET
                latest_transaction_id = CASE WHEN coalesce($1::bigint, 0) >= coalesce(purchase_date_ms, 0)
                    THEN $2 ELSE latest_transaction_id END,
                purchase_date_ms = greatest(coalesce(purchase_date_ms, 0), coalesce($1::bigint, 0)),
                expires_date_ms = CASE WHEN $3::bigint IS NULL THEN expires_date_ms
                    ELSE greatest(coalesce(expires_date_ms, 0), $3::bigint) END,
                cancellation_date_ms = coalesce($4::bigint, cancellation_date_ms),
                last_seen_ms = $5, last_source = $6
            WHERE environment = $7 AND purchase_key = $8
            """,
            [
                purchase.purchaseDate.map { String(milliseconds($0)) }, purchase.transactionId,
                purchase.expiresDate.map { String(milliseconds($0)) },
                purchase.cancellationDate.map { String(milliseconds($0)) }, String(milliseconds(batch.recordedAt)),
                batch.source.rawValue, purchase.environment, purchase.purchaseKey.rawValue,
            ]
        )
    }

    static func upsertTransaction(_ transaction: LedgerTransaction, batch: LedgerBatch, on connection: PostgresConnection)
        throws(LedgerError)
    {
        let now = String(milliseconds(batch.recordedAt))
        try connection.execute(
            """
            INSERT INTO transactions (environment, transaction_id, purchase_key, product_id,
                original_transaction_id, web_order_line_item_id, purchase_date_ms, expires_date_ms,
                cancellation_date_ms, quantity, first_seen_ms, last_seen_ms, source, request_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13)
            ON CONFLICT (environment, transaction_id) DO UPDATE SET
                expires_date_ms = coalesce(excluded.expires_date_ms, transactions.expires_date_ms),
                cancellation_date_ms = coalesce(excluded.cancellation_date_ms, transactions.cancellation_date_ms),
                last_seen_ms = excluded.last_seen_ms
            """,
            [
                transaction.environment, transaction.transactionId, transaction.purchaseKey.rawValue,
                transaction.productId, transaction.originalTransactionId, transaction.webOrderLineItemId,
                transaction.purchaseDate.map { String(milliseconds($0)) },
                transaction.expiresDate.map { String(milliseconds($0)) },
                transaction.cancellationDate.map { String(milliseconds($0)) }, String(transaction.quantity), now,
                batch.source.rawValue, batch.requestId,
            ]
        )
    }
}
