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
    /// (`t.` in PostgreSQL, nothing in SQLite): a new revocation replaces the stored one whole, none keeps it,
    /// a transaction once known as a family member's stays one, and the customer's app transaction, once
    /// known, is kept (a later sighting without it, such as an older receipt, does not clear it).
    static func keptOnConflict(existing: String) -> String {
        ["revocation_date_ms", "revocation_type", "revocation_percentage", "revoked_quantity"].map {
            "\($0) = CASE WHEN excluded.revocation_date_ms IS NULL THEN \(existing)\($0) ELSE excluded.\($0) END"
        }.joined(separator: ", ") + ", ownership = coalesce(\(existing)ownership, excluded.ownership)"
            + ", app_transaction_id = coalesce(excluded.app_transaction_id, \(existing)app_transaction_id)"
    }

    /// The `ownership` column's value for a family member's transaction (NULL: the buyer's own).
    static let familyShared = "family-shared"
}
