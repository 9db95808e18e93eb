import Foundation

/// The `consumption_requests` table's SQL, the same in both stores but for placeholders (`?` or `$n`), and
/// its rows read as text.
enum ConsumptionRequestTable {
    static func schema(integer: String) -> String {
        """
        CREATE TABLE consumption_requests (
            notification_uuid TEXT PRIMARY KEY, environment TEXT NOT NULL, transaction_id TEXT NOT NULL,
            original_transaction_id TEXT NOT NULL, product_id TEXT NOT NULL, requested_ms \(integer) NOT NULL,
            state TEXT NOT NULL, attempts INTEGER NOT NULL, next_attempt_ms \(integer) NOT NULL,
            claimed_until_ms \(integer), settled_ms \(integer), answer TEXT, outcome TEXT);
        CREATE INDEX consumption_requests_due ON consumption_requests (state, next_attempt_ms);
        CREATE INDEX consumption_requests_by_original ON consumption_requests (environment, original_transaction_id);
        """
    }

    /// The columns that let each store module answer its own requests (before them, every request was the App
    /// Store's).
    static let storeColumns = """
        ALTER TABLE consumption_requests ADD COLUMN store TEXT NOT NULL DEFAULT 'app-store';
        ALTER TABLE consumption_requests ADD COLUMN app TEXT;
        ALTER TABLE consumption_requests ADD COLUMN subject TEXT;
        """

    /// What ``stored(_:)`` reads, as text, in its order.
    private static let selected = [
        "notification_uuid", "environment", "transaction_id", "original_transaction_id", "product_id", "requested_ms",
        "attempts", "state", "settled_ms", "answer", "outcome", "store", "app", "subject",
    ].map { "CAST(\($0) AS TEXT)" }.joined(separator: ", ")

    /// Due, claimed and deferred as work under a lease, each store's apart.
    static let leased = LeasedRows(
        table: "consumption_requests", key: "notification_uuid", scope: "store", selected: selected)

    /// Settles pending request 1 as 2 with answer 3, outcome 4 at 5, counting 6 attempts; returns a row
    /// when it was pending. The store's handle for the answer (Google's pending refund token) is not kept past it.
    static func settle(_ placeholder: (Int) -> String) -> String {
        """
        UPDATE consumption_requests SET state = \(placeholder(2)), answer = \(placeholder(3)),
            outcome = \(placeholder(4)), settled_ms = \(placeholder(5)), claimed_until_ms = NULL, subject = NULL,
            attempts = attempts + \(placeholder(6))
            WHERE notification_uuid = \(placeholder(1)) AND state = 'pending' RETURNING 1
        """
    }

    /// The requests about environment 1, original transaction 2, oldest first.
    static func byOriginal(_ placeholder: (Int) -> String) -> String {
        """
        SELECT \(selected) FROM consumption_requests
            WHERE environment = \(placeholder(1)) AND original_transaction_id = \(placeholder(2))
            ORDER BY requested_ms, notification_uuid
        """
    }

    /// A row selected as text, in `selected` order.
    static func stored(_ row: [String?]) -> StoredConsumptionRequest? {
        guard row.count == 14, let uuid = row[0], let environment = row[1], let transactionId = row[2],
            let original = row[3], let productId = row[4], let requested = LedgerTime.date(row[5]),
            let attempts = row[6].flatMap(Int.init), let state = row[7].flatMap(ConsumptionRequestState.init),
            let store = row[11]
        else { return nil }
        return StoredConsumptionRequest(
            request: ConsumptionRequest(
                notificationUUID: uuid, store: store, environment: environment, transactionId: transactionId,
                originalTransactionId: original, productId: productId, requestedAt: requested, app: row[12],
                subject: row[13], attempts: attempts),
            state: state, settledAt: LedgerTime.date(row[8]), answer: row[9], outcome: row[10])
    }
}
