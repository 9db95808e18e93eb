import struct Foundation.Date

/// One change the ledger committed, as its outbox keeps it: written by the change's own transaction, numbered
/// in the order the ledger wrote it, and kept after it is delivered (for replays and support).
package struct LedgerEvent: Sendable, Equatable {
    /// The ledger's number for it: events of one purchase are delivered in this order.
    package let sequence: Int64
    /// Its id for receivers (`evt_` and 32 hex digits): the same on every delivery of it.
    package let id: String
    /// Such as `purchase.recorded` or `content.delivered`.
    package let type: String
    package let at: Date
    package let environment: String
    package let originalTransactionId: String
    package let productId: String?
    /// The account it concerns: the one whose binding changed, or else the first account holding the purchase
    /// when the change was written.
    package let accountId: String?
    /// The type's own facts: a flat JSON object, as the ledger wrote it.
    package let facts: String

    package init(
        sequence: Int64, id: String, type: String, at: Date, environment: String, originalTransactionId: String,
        productId: String?, accountId: String?, facts: String
    ) {
        self.sequence = sequence
        self.id = id
        self.type = type
        self.at = at
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.accountId = accountId
        self.facts = facts
    }

    /// A row of ``EventTable/selected``; nil for one that is not whole.
    init?(texts row: [String?]) {
        guard row.count == 9, let sequence = row[0].flatMap(Int64.init), let id = row[1], let type = row[2],
            let at = LedgerTime.date(row[3]), let environment = row[4], let original = row[5], let facts = row[8]
        else { return nil }
        self.init(
            sequence: sequence, id: id, type: type, at: at, environment: environment, originalTransactionId: original,
            productId: row[6], accountId: row[7], facts: facts)
    }
}
