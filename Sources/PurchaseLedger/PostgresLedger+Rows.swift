import Foundation

/// The statements behind `record`. A batch becomes one statement per thousand rows: a multi-row upsert of its
/// purchases with the upsert of its transactions in a data-modifying `WITH`, so a verify is one round trip
/// (atomic on its own, no BEGIN/COMMIT) and a restore of hundreds of transactions a few. Rows go in key order,
/// so concurrent batches that share purchases lock them in the same order and never deadlock.
extension PostgresLedger {
    /// One statement and its parameters.
    struct Statement {
        let sql: String
        let parameters: [String?]
    }

    /// Rows per table and statement: 37 parameters a pair, well under PostgreSQL's 65,535.
    private static let chunkSize = 1000

    /// The statements recording `purchases` (the batch's, one per key) and every transaction of `batch`.
    /// Each returns one boolean row per purchase: true when it was new. `xmax = 0` marks a row the statement
    /// inserted rather than updated, so exactly one of several gateways recording a purchase counts it as new.
    static func recordStatements(purchases: [LedgerTransaction], batch: LedgerBatch) -> [Statement] {
        let purchases = purchases.sorted {
            ($0.environment, $0.purchaseKey.rawValue) < ($1.environment, $1.purchaseKey.rawValue)
        }
        let transactions = Dictionary(batch.transactions.map { ($0.transactionId, $0) }) { _, later in later }.values
            .sorted { ($0.environment, $0.transactionId) < ($1.environment, $1.transactionId) }
        let now = LedgerTime.text(batch.recordedAt)
        return stride(from: 0, to: max(purchases.count, transactions.count), by: chunkSize).map { start in
            let purchaseRows = purchases.dropFirst(start).prefix(chunkSize).map {
                purchaseRow($0, batch: batch, now: now)
            }
            let transactionRows = transactions.dropFirst(start).prefix(chunkSize).map {
                transactionRow($0, batch: batch, now: now)
            }
            let transactionSQL = transactionRows.isEmpty ? nil : upsertTransactions(rows: transactionRows.count)
            let purchaseSQL =
                purchaseRows.isEmpty
                ? nil : upsertPurchases(rows: purchaseRows.count, after: transactionRows.count * transactionTypes.count)
            let sql = [
                transactionSQL.map { purchaseSQL == nil ? $0 : "WITH recorded_transactions AS (\($0))" }, purchaseSQL,
            ]
            .compactMap { $0 }.joined(separator: "\n")
            return Statement(sql: sql, parameters: transactionRows.flatMap { $0 } + purchaseRows.flatMap { $0 })
        }
    }

    private static func upsertPurchases(rows: Int, after offset: Int) -> String {
        """
        INSERT INTO purchases AS p (environment, purchase_key, product_id, bundle_id, original_transaction_id,
            latest_transaction_id, web_order_line_item_id, purchase_date_ms, expires_date_ms, cancellation_date_ms,
            quantity, first_seen_ms, last_seen_ms, first_source, last_source, first_request_id)
        VALUES \(values(rows: rows, types: purchaseTypes, after: offset))
        ON CONFLICT (environment, purchase_key) DO UPDATE SET
            latest_transaction_id = CASE WHEN coalesce(excluded.purchase_date_ms, 0) >= coalesce(p.purchase_date_ms, 0)
                THEN excluded.latest_transaction_id ELSE p.latest_transaction_id END,
            purchase_date_ms = greatest(coalesce(p.purchase_date_ms, 0), coalesce(excluded.purchase_date_ms, 0)),
            expires_date_ms = CASE WHEN excluded.expires_date_ms IS NULL THEN p.expires_date_ms
                ELSE greatest(coalesce(p.expires_date_ms, 0), excluded.expires_date_ms) END,
            cancellation_date_ms = coalesce(excluded.cancellation_date_ms, p.cancellation_date_ms),
            last_seen_ms = excluded.last_seen_ms, last_source = excluded.last_source
        RETURNING xmax = 0
        """
    }

    /// Known transactions keep their first sighting and take new expiry and cancellation dates.
    private static func upsertTransactions(rows: Int) -> String {
        """
        INSERT INTO transactions AS t (environment, transaction_id, purchase_key, product_id, original_transaction_id,
            web_order_line_item_id, purchase_date_ms, expires_date_ms, cancellation_date_ms, quantity, first_seen_ms,
            last_seen_ms, source, request_id, ownership, revocation_date_ms, revocation_type, revocation_percentage,
            revoked_quantity, app_transaction_id, app_transaction_source)
        VALUES \(values(rows: rows, types: transactionTypes, after: 0))
        ON CONFLICT (environment, transaction_id) DO UPDATE SET
            expires_date_ms = coalesce(excluded.expires_date_ms, t.expires_date_ms),
            cancellation_date_ms = coalesce(excluded.cancellation_date_ms, t.cancellation_date_ms),
            \(LedgerRevocation.keptOnConflict(existing: "t.")),
            last_seen_ms = excluded.last_seen_ms
        """
    }

    private static func purchaseRow(_ purchase: LedgerTransaction, batch: LedgerBatch, now: String) -> [String?] {
        [
            purchase.environment, purchase.purchaseKey.rawValue, purchase.productId, purchase.bundleId,
            purchase.originalTransactionId, purchase.transactionId, purchase.webOrderLineItemId,
            text(purchase.purchaseDate), text(purchase.expiresDate), text(purchase.cancellationDate),
            String(purchase.quantity), now, now, batch.source.rawValue, batch.source.rawValue, batch.requestId,
        ]
    }

    private static func transactionRow(_ transaction: LedgerTransaction, batch: LedgerBatch, now: String) -> [String?] {
        [
            transaction.environment, transaction.transactionId, transaction.purchaseKey.rawValue,
            transaction.productId, transaction.originalTransactionId, transaction.webOrderLineItemId,
            text(transaction.purchaseDate), text(transaction.expiresDate), text(transaction.cancellationDate),
            String(transaction.quantity), now, now, batch.source.rawValue, batch.requestId,
            transaction.familyShared ? LedgerRevocation.familyShared : nil, text(transaction.revocation?.date),
            transaction.revocation?.type, transaction.revocation.flatMap { $0.percentageMilliunits.map(String.init) },
            transaction.revocation.map { String($0.quantity) }, transaction.appTransactionId,
            transaction.appTransactionSource,
        ]
    }

    /// Column types of the rows above, for the parameter casts (nil: text).
    private static let purchaseTypes: [String?] = [
        nil, nil, nil, nil, nil, nil, nil, "bigint", "bigint", "bigint", "integer", "bigint", "bigint", nil, nil, nil,
    ]
    private static let transactionTypes: [String?] = [
        nil, nil, nil, nil, nil, nil, "bigint", "bigint", "bigint", "integer", "bigint", "bigint", nil, nil, nil,
        "bigint", nil, "integer", "integer", nil, nil,
    ]

    /// `($7, $8::bigint, ...), (...)`: `rows` tuples of parameters numbered after the first `offset`.
    private static func values(rows: Int, types: [String?], after offset: Int) -> String {
        (0..<rows).map { row in
            let columns = types.enumerated().map { column, type in
                "$\(offset + row * types.count + column + 1)" + (type.map { "::" + $0 } ?? "")
            }
            return "(" + columns.joined(separator: ", ") + ")"
        }.joined(separator: ", ")
    }

    private static func text(_ date: Date?) -> String? { date.map(LedgerTime.text) }
}
