/// The `restores` table's SQL, the same in both stores but for placeholders (`?n` or `$n`): one row per purchase a
/// restore-sync named, once per request.
enum RestoreTable {
    static func schema(integer: String) -> String {
        """
        CREATE TABLE restores (
            environment TEXT NOT NULL, original_transaction_id TEXT NOT NULL, request_id TEXT NOT NULL,
            restored_ms \(integer) NOT NULL, PRIMARY KEY (environment, original_transaction_id, request_id));
        """
    }

    /// The statement and arguments that record `restore` (a repeat of the same request's is kept once).
    static func insert(_ restore: Restore, placeholder: (Int) -> String) -> (sql: String, arguments: [String?]) {
        (
            LedgerTable.restores.insertStatement(placeholder: placeholder),
            [
                restore.environment, restore.originalTransactionId, restore.requestId,
                LedgerTime.text(restore.restoredAt),
            ]
        )
    }

    /// The restores of one purchase, oldest first.
    static func select(placeholder: (Int) -> String) -> String {
        """
        SELECT environment, original_transaction_id, request_id, CAST(restored_ms AS TEXT) FROM restores
        WHERE environment = \(placeholder(1)) AND original_transaction_id = \(placeholder(2))
        ORDER BY restored_ms, request_id
        """
    }

    /// A row of ``select(placeholder:)`` as a restore.
    static func restore(_ row: [String?]) -> Restore? {
        guard row.count == 4, let environment = row[0], let original = row[1], let request = row[2],
            let at = LedgerTime.date(row[3])
        else { return nil }
        return Restore(environment: environment, originalTransactionId: original, requestId: request, restoredAt: at)
    }
}
