/// One trigger of the outbox: after a change to `table`, the rows it means, written by the database in the
/// change's own transaction (so an event exists exactly when its change does, whichever code path made it), unless
/// a `ledger copy` is writing (a row in `ledger_quiet`, seen only by the copy's transaction).
struct EventTrigger {
    let name: String
    let table: String
    /// `INSERT`, or `UPDATE OF <column>`.
    let operation: String
    /// When it fires, over NEW and OLD alone (PostgreSQL's `WHEN` takes no subquery).
    var condition: String?
    /// Its statements, in order.
    let statements: (LedgerDialect) -> [String]

    func sql(_ dialect: LedgerDialect) -> String {
        let body = statements(dialect).map { $0 + ";" }.joined(separator: "\n")
        switch dialect {
        case .sqlite:
            let when = ["NOT EXISTS (SELECT 1 FROM ledger_quiet)"] + (condition.map { ["(\($0))"] } ?? [])
            return """
                CREATE TRIGGER \(name) AFTER \(operation) ON \(table) FOR EACH ROW
                WHEN \(when.joined(separator: " AND ")) BEGIN
                \(body)
                END;
                """
        case .postgres:
            return """
                CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                IF EXISTS (SELECT 1 FROM ledger_quiet) THEN RETURN NULL; END IF;
                \(body)
                RETURN NULL;
                END $$;
                CREATE TRIGGER \(name) AFTER \(operation) ON \(table) FOR EACH ROW\(condition.map { " WHEN (\($0))" } ?? "")
                EXECUTE FUNCTION \(name)();
                """
        }
    }

    /// The statement writing one event of `type` (an SQL expression) about the purchase `environment` and
    /// `original` name, at `at` (milliseconds), when `condition` holds. `account` is the account it concerns;
    /// by default the first account holding the purchase, if any.
    static func event(
        type: String, at: String, product: String, facts: [(String, String)], condition: String? = nil,
        account: String? = nil, environment: String = "NEW.environment",
        original: String = "NEW.original_transaction_id",
        dialect: LedgerDialect
    ) -> String {
        let holder = """
            (SELECT account_id FROM account_bindings WHERE environment = \(environment) \
            AND original_transaction_id = \(original) ORDER BY bound_ms, account_id LIMIT 1)
            """
        let values = [
            dialect.newEventId, type, at, environment, original, product, account ?? holder, dialect.object(facts),
        ]
        return """
            INSERT INTO events (event_id, type, at_ms, environment, original_transaction_id, product_id, account_id, \
            facts) SELECT \(values.joined(separator: ", "))\(condition.map { " WHERE \($0)" } ?? "")
            """
    }
}
