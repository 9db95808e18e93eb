/// The `delivery_failures` table's SQL, the same in both stores but for placeholders (`?n` or `$n`).
enum DeliveryFailureTable {
    /// Migration 14.
    static func schema(integer: String) -> String {
        """
        CREATE TABLE delivery_failures (
            request_id TEXT PRIMARY KEY, environment TEXT NOT NULL, product_id TEXT NOT NULL,
            original_transaction_id TEXT NOT NULL, status INTEGER NOT NULL, reason TEXT NOT NULL,
            failed_ms \(integer) NOT NULL);
        CREATE INDEX delivery_failures_by_original ON delivery_failures (environment, original_transaction_id);
        """
    }

    /// The statement and arguments that record `failure` (a request's is kept once).
    static func insert(_ failure: DeliveryFailure, placeholder: (Int) -> String) -> (sql: String, arguments: [String?])
    {
        (
            LedgerTable.deliveryFailures.insertStatement(placeholder: placeholder),
            [
                failure.requestId, failure.environment, failure.productId, failure.originalTransactionId,
                String(failure.status), failure.reason, LedgerTime.text(failure.failedAt),
            ]
        )
    }

    /// The failures of one purchase, oldest first.
    static func select(placeholder: (Int) -> String) -> String {
        """
        SELECT request_id, environment, product_id, original_transaction_id, CAST(status AS TEXT), reason,
            CAST(failed_ms AS TEXT)
        FROM delivery_failures WHERE environment = \(placeholder(1)) AND original_transaction_id = \(placeholder(2))
        ORDER BY failed_ms, request_id
        """
    }

    /// A row of ``select(placeholder:)`` as a failure.
    static func failure(_ row: [String?]) -> DeliveryFailure? {
        guard row.count == 7, let request = row[0], let environment = row[1], let product = row[2],
            let original = row[3], let status = row[4].flatMap({ Int($0) }), let reason = row[5],
            let at = LedgerTime.date(row[6])
        else { return nil }
        return DeliveryFailure(
            environment: environment, productId: product, originalTransactionId: original, requestId: request,
            status: status, reason: reason, failedAt: at)
    }
}
