import struct Foundation.Date

/// What the store refunded or revoked of a transaction, as the ledger keeps it beside the transaction (a
/// prorated refund of some of a pack's items leaves the purchase itself uncancelled).
package struct LedgerRevocation: Sendable, Hashable {
    package let date: Date
    /// The store's word, such as `REFUND_PRORATED`.
    package let type: String?
    /// Thousandths of a percent.
    package let percentageMilliunits: Int?
    /// The items taken back.
    package let quantity: Int

    package init(date: Date, type: String?, percentageMilliunits: Int?, quantity: Int) {
        self.date = date
        self.type = type
        self.percentageMilliunits = percentageMilliunits
        self.quantity = quantity
    }

    /// Migration 13: each transaction keeps whether a family member has it through Family Sharing and what was
    /// refunded of it.
    static func columns(integer: String) -> String {
        """
        ALTER TABLE transactions ADD COLUMN ownership TEXT;
        ALTER TABLE transactions ADD COLUMN revocation_date_ms \(integer);
        ALTER TABLE transactions ADD COLUMN revocation_type TEXT;
        ALTER TABLE transactions ADD COLUMN revocation_percentage INTEGER;
        ALTER TABLE transactions ADD COLUMN revoked_quantity INTEGER;
        """
    }

    /// The SET clauses of a transaction upsert for these columns, `existing` prefixing the stored row's columns
    /// (`t.` in PostgreSQL, nothing in SQLite). A refund only grows until Apple reverses it (which clears it), so
    /// the stored one stays unless the new one takes back more items (or, as many, a larger share): an older
    /// notification arriving late, or a device's older copy, never shrinks it. A transaction once known as a
    /// family member's stays one. An app transaction Apple said replaces one the app claimed; one the app claims
    /// never replaces a known one.
    static func keptOnConflict(existing: String) -> String {
        let (new, old) = ("coalesce(excluded.revoked_quantity, 0)", "coalesce(\(existing)revoked_quantity, 0)")
        let keepRefund = """
            excluded.revocation_date_ms IS NULL OR (\(existing)revocation_date_ms IS NOT NULL AND (\(new) < \(old) \
            OR (\(new) = \(old) AND coalesce(excluded.revocation_percentage, 0) \
            < coalesce(\(existing)revocation_percentage, 0))))
            """
        let keepAppTransaction = """
            \(existing)app_transaction_id IS NOT NULL \
            AND (excluded.app_transaction_id IS NULL OR excluded.app_transaction_source = 'app')
            """
        let refund = ["revocation_date_ms", "revocation_type", "revocation_percentage", "revoked_quantity"].map {
            "\($0) = CASE WHEN \(keepRefund) THEN \(existing)\($0) ELSE excluded.\($0) END"
        }
        let appTransaction = ["app_transaction_id", "app_transaction_source"].map {
            "\($0) = CASE WHEN \(keepAppTransaction) THEN \(existing)\($0) ELSE excluded.\($0) END"
        }
        return (refund + ["ownership = coalesce(\(existing)ownership, excluded.ownership)"] + appTransaction)
            .joined(separator: ", ")
    }

    /// The `ownership` column's value for a family member's transaction (NULL: the buyer's own).
    static let familyShared = "family-shared"
}
