import Foundation
import GRDB

/// The statements behind `record`, each run inside the caller's write transaction.
extension SQLiteLedger {
    /// Inserts a purchase seen for the first time; false when its key is already present.
    static func insertPurchase(_ purchase: LedgerTransaction, batch: LedgerBatch, db: Database) throws -> Bool {
        let now = LedgerTime.milliseconds(batch.recordedAt)
        try db.cachedStatement(
            sql: """
                INSERT INTO purchases (environment, purchase_key, product_id, bundle_id, original_transaction_id,
                    latest_transaction_id, web_order_line_item_id, purchase_date_ms, expires_date_ms,
                    cancellation_date_ms, quantity, first_seen_ms, last_seen_ms, first_source, last_source,
                    first_request_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (environment, purchase_key) DO NOTHING
                """,
        ).execute(
            arguments: [
                purchase.environment, purchase.purchaseKey.rawValue, purchase.productId, purchase.bundleId,
                purchase.originalTransactionId, purchase.transactionId, purchase.webOrderLineItemId,
                purchase.purchaseDate.map(LedgerTime.milliseconds), purchase.expiresDate.map(LedgerTime.milliseconds),
                purchase.cancellationDate.map(LedgerTime.milliseconds), purchase.quantity, now, now,
                batch.source.rawValue, batch.source.rawValue, batch.requestId,
            ]
        )
        return db.changesCount == 1
    }

    /// Refreshes a known purchase: a newer transaction (a restore) becomes the latest, expiry only grows,
    /// and a cancellation once seen is kept.
    static func updatePurchase(_ purchase: LedgerTransaction, batch: LedgerBatch, db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE purchases SET
                    latest_transaction_id = CASE WHEN coalesce(:purchase, 0) >= coalesce(purchase_date_ms, 0)
                        THEN :transaction ELSE latest_transaction_id END,
                    purchase_date_ms = max(coalesce(purchase_date_ms, 0), coalesce(:purchase, 0)),
                    expires_date_ms = CASE WHEN :expires IS NULL THEN expires_date_ms
                        ELSE max(coalesce(expires_date_ms, 0), :expires) END,
                    cancellation_date_ms = coalesce(:cancellation, cancellation_date_ms),
                    last_seen_ms = :now, last_source = :source
                WHERE environment = :environment AND purchase_key = :key
                """,
        ).execute(
            arguments: [
                "purchase": purchase.purchaseDate.map(LedgerTime.milliseconds), "transaction": purchase.transactionId,
                "expires": purchase.expiresDate.map(LedgerTime.milliseconds),
                "cancellation": purchase.cancellationDate.map(LedgerTime.milliseconds),
                "now": LedgerTime.milliseconds(batch.recordedAt), "source": batch.source.rawValue,
                "environment": purchase.environment, "key": purchase.purchaseKey.rawValue,
            ]
        )
    }

    static func upsertTransaction(_ transaction: LedgerTransaction, batch: LedgerBatch, db: Database) throws {
        let now = LedgerTime.milliseconds(batch.recordedAt)
        try db.cachedStatement(
            sql: """
                INSERT INTO transactions (environment, transaction_id, purchase_key, product_id,
                    original_transaction_id, web_order_line_item_id, purchase_date_ms, expires_date_ms,
                    cancellation_date_ms, quantity, first_seen_ms, last_seen_ms, source, request_id, ownership,
                    revocation_date_ms, revocation_type, revocation_percentage, revoked_quantity, app_transaction_id,
                    app_transaction_source)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (environment, transaction_id) DO UPDATE SET
                    expires_date_ms = coalesce(excluded.expires_date_ms, expires_date_ms),
                    cancellation_date_ms = coalesce(excluded.cancellation_date_ms, cancellation_date_ms),
                    \(LedgerRevocation.keptOnConflict(existing: "")),
                    last_seen_ms = excluded.last_seen_ms
                """,
        ).execute(
            arguments: [
                transaction.environment, transaction.transactionId, transaction.purchaseKey.rawValue,
                transaction.productId, transaction.originalTransactionId, transaction.webOrderLineItemId,
                transaction.purchaseDate.map(LedgerTime.milliseconds),
                transaction.expiresDate.map(LedgerTime.milliseconds),
                transaction.cancellationDate.map(LedgerTime.milliseconds), transaction.quantity, now, now,
                batch.source.rawValue, batch.requestId, transaction.familyShared ? LedgerRevocation.familyShared : nil,
                transaction.revocation.map { LedgerTime.milliseconds($0.date) }, transaction.revocation?.type,
                transaction.revocation?.percentageMilliunits, transaction.revocation?.quantity,
                transaction.appTransactionId, transaction.appTransactionSource,
            ]
        )
    }

    static func insertDelivery(_ delivery: Delivery, db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO deliveries (environment, product_id, original_transaction_id, content_sha256,
                    request_id, delivered_ms)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            delivery.environment, delivery.productId, delivery.originalTransactionId, delivery.contentSHA256,
            delivery.requestId, LedgerTime.milliseconds(delivery.deliveredAt),
        ])
    }

    static func delivery(_ row: Row) -> Delivery {
        Delivery(
            environment: row["environment"],
            productId: row["product_id"],
            originalTransactionId: row["original_transaction_id"],
            contentSHA256: row["content_sha256"],
            requestId: row["request_id"],
            deliveredAt: LedgerTime.date(milliseconds: row["delivered_ms"])
        )
    }

    /// The columns ``storedPurchase(_:)`` reads, in its order: by position, as GRDB finds a column by name
    /// with a case-insensitive search, which costs more than the rest of a token download's read.
    static let storedPurchaseColumns = StoredPurchase.columns.joined(separator: ", ")

    static func storedPurchase(_ row: Row) -> StoredPurchase {
        StoredPurchase(
            environment: row[0],
            purchaseKey: PurchaseKey(rawValue: row[1]),
            productId: row[2],
            originalTransactionId: row[3],
            latestTransactionId: row[4],
            expiresDate: (row[5] as Int64?).map(LedgerTime.date(milliseconds:)),
            cancellationDate: (row[6] as Int64?).map(LedgerTime.date(milliseconds:)),
            firstSeen: LedgerTime.date(milliseconds: row[7]),
            lastSeen: LedgerTime.date(milliseconds: row[8]),
            firstSource: LedgerSource(rawValue: row[9]) ?? .verify,
            lastSource: LedgerSource(rawValue: row[10]) ?? .verify
        )
    }

}
