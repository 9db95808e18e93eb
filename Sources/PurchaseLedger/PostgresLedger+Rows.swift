import Foundation

/// The statements behind `record`, run inside the caller's transaction: one multi-row upsert per table (per
/// chunk), so a restore of hundreds of transactions is a few round trips, not hundreds. Rows go in key order,
/// so concurrent batches that share purchases lock them in the same order and never deadlock.
extension PostgresLedger {
    /// Rows per statement: well under PostgreSQL's 65,535 parameters at 16 a row.
    private static let chunkSize = 1000

    /// Inserts new purchases and refreshes known ones by the SQLite ledger's rules; returns how many were new.
    /// `xmax = 0` marks a row this statement inserted rather than updated, so exactly one of several gateways
    /// recording the same purchase at once counts it as new.
    static func upsertPurchases(_ purchases: [LedgerTransaction], batch: LedgerBatch, on connection: PostgresConnection)
        throws(LedgerError) -> Int
    {
        let sorted = purchases.sorted {
            ($0.environment, $0.purchaseKey.rawValue) < ($1.environment, $1.purchaseKey.rawValue)
        }
        let now = String(milliseconds(batch.recordedAt))
        var recorded = 0
        for start in stride(from: 0, to: sorted.count, by: chunkSize) {
            let chunk = sorted[start..<min(start + chunkSize, sorted.count)]
            let inserted = try connection.execute(
                """
                INSERT INTO purchases AS p (environment, purchase_key, product_id, bundle_id, original_transaction_id,
                    latest_transaction_id, web_order_line_item_id, purchase_date_ms, expires_date_ms,
                    cancellation_date_ms, quantity, first_seen_ms, last_seen_ms, first_source, last_source,
                    first_request_id)
                VALUES \(values(rows: chunk.count, types: purchaseTypes))
                ON CONFLICT (environment, purchase_key) DO UPDATE SET
                    latest_transaction_id = CASE WHEN coalesce(excluded.purchase_date_ms, 0) >= coalesce(p.purchase_date_ms, 0)
                        THEN excluded.latest_transaction_id ELSE p.latest_transaction_id END,
                    purchase_date_ms = greatest(coalesce(p.purchase_date_ms, 0), coalesce(excluded.purchase_date_ms, 0)),
                    expires_date_ms = CASE WHEN excluded.expires_date_ms IS NULL THEN p.expires_date_ms
                        ELSE greatest(coalesce(p.expires_date_ms, 0), excluded.expires_date_ms) END,
                    cancellation_date_ms = coalesce(excluded.cancellation_date_ms, p.cancellation_date_ms),
                    last_seen_ms = excluded.last_seen_ms, last_source = excluded.last_source
                RETURNING xmax = 0
                """,
                chunk.flatMap { purchase -> [String?] in
                    [
                        purchase.environment, purchase.purchaseKey.rawValue, purchase.productId, purchase.bundleId,
                        purchase.originalTransactionId, purchase.transactionId, purchase.webOrderLineItemId,
                        text(purchase.purchaseDate), text(purchase.expiresDate), text(purchase.cancellationDate),
                        String(purchase.quantity), now, now, batch.source.rawValue, batch.source.rawValue,
                        batch.requestId,
                    ]
                }
            )
            recorded += inserted.filter { $0.first == "t" }.count
        }
        return recorded
    }

    /// Records every transaction (one row per id: a later duplicate in the batch wins); known ones keep their
    /// first sighting and take new expiry and cancellation dates.
    static func upsertTransactions(
        _ transactions: [LedgerTransaction], batch: LedgerBatch, on connection: PostgresConnection
    )
        throws(LedgerError)
    {
        let unique = Dictionary(transactions.map { ($0.transactionId, $0) }) { _, later in later }.values
            .sorted { ($0.environment, $0.transactionId) < ($1.environment, $1.transactionId) }
        let now = String(milliseconds(batch.recordedAt))
        for start in stride(from: 0, to: unique.count, by: chunkSize) {
            let chunk = unique[start..<min(start + chunkSize, unique.count)]
            try connection.execute(
                """
                INSERT INTO transactions AS t (environment, transaction_id, purchase_key, product_id,
                    original_transaction_id, web_order_line_item_id, purchase_date_ms, expires_date_ms,
                    cancellation_date_ms, quantity, first_seen_ms, last_seen_ms, source, request_id)
                VALUES \(values(rows: chunk.count, types: transactionTypes))
                ON CONFLICT (environment, transaction_id) DO UPDATE SET
                    expires_date_ms = coalesce(excluded.expires_date_ms, t.expires_date_ms),
                    cancellation_date_ms = coalesce(excluded.cancellation_date_ms, t.cancellation_date_ms),
                    last_seen_ms = excluded.last_seen_ms
                """,
                chunk.flatMap { transaction -> [String?] in
                    [
                        transaction.environment, transaction.transactionId, transaction.purchaseKey.rawValue,
                        transaction.productId, transaction.originalTransactionId, transaction.webOrderLineItemId,
                        text(transaction.purchaseDate), text(transaction.expiresDate),
                        text(transaction.cancellationDate), String(transaction.quantity), now, now,
                        batch.source.rawValue, batch.requestId,
                    ]
                }
            )
        }
    }

    /// Column types of the rows above, for the parameter casts (nil: text).
    private static let purchaseTypes: [String?] = [
        nil, nil, nil, nil, nil, nil, nil, "bigint", "bigint", "bigint", "integer", "bigint", "bigint", nil, nil, nil,
    ]
    private static let transactionTypes: [String?] = [
        nil, nil, nil, nil, nil, nil, "bigint", "bigint", "bigint", "integer", "bigint", "bigint", nil, nil,
    ]

    /// `($1, $2::bigint, ...), (...)`: `rows` tuples of numbered parameters.
    private static func values(rows: Int, types: [String?]) -> String {
        (0..<rows).map { row in
            "("
                + types.enumerated().map { column, type in
                    "$\(row * types.count + column + 1)" + (type.map { "::" + $0 } ?? "")
                }.joined(separator: ", ") + ")"
        }.joined(separator: ", ")
    }

    private static func text(_ date: Date?) -> String? { date.map { String(milliseconds($0)) } }
}
