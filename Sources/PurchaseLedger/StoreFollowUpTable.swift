/// The `store_follow_ups` table's SQL, the same in both stores but for placeholders (`?` or `$n`), and its rows
/// read as text.
enum StoreFollowUpTable {
    static func schema(integer: String) -> String {
        """
        CREATE TABLE store_follow_ups (
            follow_up_key TEXT PRIMARY KEY, store TEXT NOT NULL, action TEXT NOT NULL, environment TEXT NOT NULL,
            original_transaction_id TEXT NOT NULL, product_id TEXT NOT NULL, app TEXT NOT NULL,
            store_product_id TEXT NOT NULL, subject TEXT NOT NULL, after_delivery INTEGER NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL,
            next_attempt_ms \(integer), claimed_until_ms \(integer), created_ms \(integer) NOT NULL,
            settled_ms \(integer), outcome TEXT);
        CREATE INDEX store_follow_ups_due ON store_follow_ups (store, state, next_attempt_ms);
        CREATE INDEX store_follow_ups_by_original ON store_follow_ups (environment, original_transaction_id);
        """
    }

    /// What ``stored(_:)`` reads, as text, in its order.
    private static let selected = [
        "follow_up_key", "store", "action", "environment", "original_transaction_id", "product_id", "app",
        "store_product_id", "subject", "after_delivery", "state", "attempts", "created_ms", "settled_ms", "outcome",
    ].map { "CAST(\($0) AS TEXT)" }.joined(separator: ", ")

    /// Due, claimed and deferred as work under a lease.
    static let leased = LeasedRows(table: "store_follow_ups", key: "follow_up_key", scope: "store", selected: selected)

    /// Settles pending follow-up 1 as 2 with outcome 3 at 4, counting the attempt; returns a row when it was
    /// pending.
    static func settle(_ placeholder: (Int) -> String) -> String {
        """
        UPDATE store_follow_ups SET state = \(placeholder(2)), outcome = \(placeholder(3)),
            settled_ms = \(placeholder(4)), claimed_until_ms = NULL, attempts = attempts + 1
            WHERE follow_up_key = \(placeholder(1)) AND state = 'pending' RETURNING 1
        """
    }

    /// Makes the follow-ups of environment 1, original transaction 2 that wait for a delivery due at 3; returns
    /// a row for each.
    static func delivered(_ placeholder: (Int) -> String) -> String {
        """
        UPDATE store_follow_ups SET state = 'pending', next_attempt_ms = \(placeholder(3))
            WHERE environment = \(placeholder(1)) AND original_transaction_id = \(placeholder(2)) AND state = 'waiting'
            RETURNING 1
        """
    }

    /// The follow-ups of environment 1, original transaction 2, oldest first.
    static func byOriginal(_ placeholder: (Int) -> String) -> String {
        """
        SELECT \(selected) FROM store_follow_ups
            WHERE environment = \(placeholder(1)) AND original_transaction_id = \(placeholder(2))
            ORDER BY created_ms, follow_up_key
        """
    }

    /// How many of store 1's follow-ups of each action are pending, and the oldest one's creation.
    static func backlog(_ placeholder: (Int) -> String) -> String {
        """
        SELECT action, CAST(count(*) AS TEXT), CAST(min(created_ms) AS TEXT) FROM store_follow_ups
            WHERE store = \(placeholder(1)) AND state = 'pending' GROUP BY action ORDER BY action
        """
    }

    /// A row selected as text, in `selected` order.
    static func stored(_ row: [String?]) -> StoredFollowUp? {
        guard row.count == 15, let key = row[0], let store = row[1], let action = row[2], let environment = row[3],
            let original = row[4], let productId = row[5], let app = row[6], let storeProductId = row[7],
            let subject = row[8], let state = row[10].flatMap(StoreFollowUpState.init),
            let attempts = row[11].flatMap(Int.init), let created = LedgerTime.date(row[12])
        else { return nil }
        return StoredFollowUp(
            followUp: StoreFollowUp(
                key: key, store: store, action: action, environment: environment, originalTransactionId: original,
                productId: productId, app: app, storeProductId: storeProductId, subject: subject,
                afterDelivery: row[9] == "1", createdAt: created, attempts: attempts),
            state: state, settledAt: LedgerTime.date(row[13]), outcome: row[14])
    }
}
