import struct Foundation.Date

/// What a store knows a purchase by, as the ledger keeps it: a digest of the handle the app sends (a Google purchase
/// token's, never the token), so that when the store later says the handle is no longer valid, the ledger finds the
/// purchase to end.
package struct StoreHandle: Sendable, Equatable {
    package let store: String
    /// A digest of the store's handle.
    package let handle: String
    package let environment: String
    package let originalTransactionId: String

    package init(store: String, handle: String, environment: String, originalTransactionId: String) {
        self.store = store
        self.handle = handle
        self.environment = environment
        self.originalTransactionId = originalTransactionId
    }

    /// The row of the `store_handles` table, in `LedgerTable` column order.
    func row(at recorded: Date) -> [String?] {
        [store, handle, environment, originalTransactionId, LedgerTime.text(recorded)]
    }

    static func schema(integer: String) -> String {
        """
        CREATE TABLE store_handles (
            store TEXT NOT NULL, handle TEXT NOT NULL, environment TEXT NOT NULL,
            original_transaction_id TEXT NOT NULL, recorded_ms \(integer) NOT NULL, PRIMARY KEY (store, handle));
        """
    }

    /// The purchases store 1 knows by handle 2.
    static func originals(_ placeholder: (Int) -> String) -> String {
        """
        SELECT environment, original_transaction_id FROM store_handles
            WHERE store = \(placeholder(1)) AND handle = \(placeholder(2)) ORDER BY environment, original_transaction_id
        """
    }

    /// A row of ``originals(_:)``.
    static func original(_ row: [String?]) -> LedgerOriginal? {
        guard row.count == 2, let environment = row[0], let original = row[1] else { return nil }
        return LedgerOriginal(environment: environment, originalTransactionId: original)
    }

    /// Ends the purchases of environment 1, original transaction 2 at 3 (seen so by source 4), unless they were
    /// cancelled before or their period ended before then; returns a row for each.
    static func end(_ placeholder: (Int) -> String) -> String {
        """
        UPDATE purchases SET cancellation_date_ms = \(placeholder(3)), last_seen_ms = \(placeholder(3)),
            last_source = \(placeholder(4))
            WHERE environment = \(placeholder(1)) AND original_transaction_id = \(placeholder(2))
            AND cancellation_date_ms IS NULL AND (expires_date_ms IS NULL OR expires_date_ms > \(placeholder(3)))
            RETURNING 1
        """
    }
}
