/// The SQL of a table of work claimed under a lease (the stores' requests and follow-ups), the same in both
/// stores but for placeholders: the pending rows due now that no live claim holds, oldest first; a claim of one,
/// which re-checks it so that of two callers one wins; and its release for a later attempt.
struct LeasedRows {
    let table: String
    let key: String
    /// A column the due rows are chosen by besides (the store), its value the first parameter of ``due(_:)``.
    let scope: String?
    /// What a claim returns, as text.
    let selected: String

    /// Pending rows (of the scope's first parameter) due at the next parameter and not held by a live claim,
    /// oldest first; the last parameter is the limit.
    func due(_ placeholder: (Int) -> String) -> String {
        let offset = scope == nil ? 0 : 1
        let scoped = scope.map { "\($0) = \(placeholder(1)) AND " } ?? ""
        return """
            SELECT \(key) FROM \(table) WHERE \(scoped)state = 'pending' AND next_attempt_ms <= \(placeholder(offset + 1))
                AND (claimed_until_ms IS NULL OR claimed_until_ms <= \(placeholder(offset + 1)))
                ORDER BY next_attempt_ms, \(key) LIMIT \(placeholder(offset + 2))
            """
    }

    /// Claims row 1 until 3 if it is still due and unclaimed at 2; returns it when this call won it.
    func claim(_ placeholder: (Int) -> String) -> String {
        """
        UPDATE \(table) SET claimed_until_ms = \(placeholder(3))
            WHERE \(key) = \(placeholder(1)) AND state = 'pending' AND next_attempt_ms <= \(placeholder(2))
            AND (claimed_until_ms IS NULL OR claimed_until_ms <= \(placeholder(2)))
            RETURNING \(selected)
        """
    }

    /// Releases pending row 1 for an attempt at 2, with outcome 3, counting the attempt.
    func deferral(_ placeholder: (Int) -> String) -> String {
        """
        UPDATE \(table) SET next_attempt_ms = \(placeholder(2)), outcome = \(placeholder(3)),
            claimed_until_ms = NULL, attempts = attempts + 1
            WHERE \(key) = \(placeholder(1)) AND state = 'pending'
        """
    }
}
