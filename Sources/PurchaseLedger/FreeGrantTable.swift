import Foundation

/// The `free_grants` table's SQL, the same in both stores but for placeholders (`?n` or `$n`), and the writes
/// that record and revoke a grant with its purchase, transaction and (for an account) binding.
enum FreeGrantTable {
    static func schema(integer: String) -> String {
        """
        CREATE TABLE free_grants (
            grant_id TEXT PRIMARY KEY, environment TEXT NOT NULL, product_id TEXT NOT NULL, account_id TEXT,
            customer_original_transaction_id TEXT, reason TEXT NOT NULL, granted_by TEXT NOT NULL,
            granted_ms \(integer) NOT NULL, expires_ms \(integer), revoked_ms \(integer), revoked_by TEXT,
            revoke_reason TEXT, request_id TEXT NOT NULL);
        CREATE INDEX free_grants_by_customer ON free_grants (environment, customer_original_transaction_id);
        """
    }

    /// The columns a grant is read from, in order.
    private static let columns = LedgerTable.freeGrants.columns

    /// The statements that record `grant`, in order, in one transaction: the grant, its purchase and
    /// transaction, and for an account grant the binding and its event.
    static func writes(_ grant: FreeGrant, placeholder: (Int) -> String) -> [(sql: String, arguments: [String?])] {
        let granted = LedgerTime.text(grant.grantedAt)
        let expires = grant.expiresAt.map(LedgerTime.text)
        let key = PurchaseKey.freeGrant(grant.id).rawValue
        let table = LedgerTable.freeGrants
        // Not "ON CONFLICT DO NOTHING": a grant id given twice is an error, never a silent second grant.
        let insertGrant =
            "INSERT INTO \(table.rawValue) (\(table.columns.joined(separator: ", "))) VALUES ("
            + (1...table.columns.count).map(placeholder).joined(separator: ", ") + ")"
        var writes: [(sql: String, arguments: [String?])] = [
            (
                insertGrant,
                [
                    grant.id, grant.environment, grant.productId, grant.accountId, grant.customerOriginalTransactionId,
                    grant.reason, grant.grantedBy, granted, expires, nil, nil, nil, grant.requestId,
                ]
            ),
            (
                LedgerTable.purchases.insertStatement(placeholder: placeholder),
                [
                    grant.environment, key, grant.productId, "", grant.id, grant.id, nil, granted, expires, nil, "1",
                    granted, granted, LedgerSource.grant.rawValue, LedgerSource.grant.rawValue, grant.requestId,
                ]
            ),
            (
                LedgerTable.transactions.insertStatement(placeholder: placeholder),
                [
                    grant.environment, grant.id, key, grant.productId, grant.id, nil, granted, expires, nil, "1",
                    granted, granted, LedgerSource.grant.rawValue, grant.requestId, nil, nil, nil, nil, nil, nil, nil,
                ]
            ),
        ]
        if let account = grant.accountId {
            let claim = AccountClaim(
                environment: grant.environment, originalTransactionId: grant.id, productId: grant.productId,
                accountId: account, policy: .keep, origin: .grant, requestId: grant.requestId, at: grant.grantedAt)
            writes += AccountBindingTable.writes(claim, .bound, placeholder: placeholder)
        }
        return writes
    }

    /// The statements that revoke grant `id` at `at` by `by` for `reason`, unless it was revoked before: the
    /// grant, and its purchase and transaction (cancelled, so tokens and downloads stop at once).
    static func revocations(_ id: String, by: String, reason: String, at: Date, placeholder: (Int) -> String)
        -> [(sql: String, arguments: [String?])]
    {
        let (first, second, third, fourth) = (placeholder(1), placeholder(2), placeholder(3), placeholder(4))
        let milliseconds = LedgerTime.text(at)
        return [
            (
                """
                UPDATE free_grants SET revoked_ms = \(second), revoked_by = \(third), revoke_reason = \(fourth)
                    WHERE grant_id = \(first) AND revoked_ms IS NULL
                """,
                [id, milliseconds, by, reason]
            ),
            (
                """
                UPDATE purchases SET cancellation_date_ms = \(second), last_seen_ms = \(second)
                    WHERE original_transaction_id = \(first) AND purchase_key = \(third)
                    AND cancellation_date_ms IS NULL
                """,
                [id, milliseconds, PurchaseKey.freeGrant(id).rawValue]
            ),
            (
                """
                UPDATE transactions SET cancellation_date_ms = \(second), last_seen_ms = \(second)
                    WHERE transaction_id = \(first) AND purchase_key = \(third) AND cancellation_date_ms IS NULL
                """,
                [id, milliseconds, PurchaseKey.freeGrant(id).rawValue]
            ),
        ]
    }

    /// The grants `selection` names, with the parameters to bind.
    static func query(_ selection: FreeGrantSelection, _ placeholder: (Int) -> String) -> (String, [String]) {
        let selected = "SELECT " + columns.map { "CAST(\($0) AS TEXT)" }.joined(separator: ", ") + " FROM free_grants"
        switch selection {
        case .id(let id):
            return ("\(selected) WHERE grant_id = \(placeholder(1))", [id])
        case .about(let environment, let original):
            return (
                """
                \(selected) WHERE environment = \(placeholder(1))
                    AND (grant_id = \(placeholder(2)) OR customer_original_transaction_id = \(placeholder(2)))
                    ORDER BY granted_ms, grant_id
                """,
                [environment, original]
            )
        case .active(let now):
            return (
                """
                \(selected) WHERE revoked_ms IS NULL AND (expires_ms IS NULL OR expires_ms > \(placeholder(1)))
                    ORDER BY granted_ms, grant_id
                """,
                [LedgerTime.text(now)]
            )
        case .all:
            return ("\(selected) ORDER BY granted_ms DESC, grant_id", [])
        }
    }

    /// A grant from its row of ``columns`` read as text.
    static func grant(_ row: [String?]) -> FreeGrant? {
        guard row.count == columns.count, let id = row[0], let environment = row[1], let product = row[2],
            let reason = row[5], let by = row[6], let granted = LedgerTime.date(row[7]), let request = row[12]
        else { return nil }
        return FreeGrant(
            id: id, environment: environment, productId: product, accountId: row[3],
            customerOriginalTransactionId: row[4], reason: reason, grantedBy: by, grantedAt: granted,
            expiresAt: LedgerTime.date(row[8]), revokedAt: LedgerTime.date(row[9]), revokedBy: row[10],
            revokeReason: row[11], requestId: request)
    }
}
