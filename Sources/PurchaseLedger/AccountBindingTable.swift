import Foundation
import Synchronization

/// The `account_bindings` and `account_binding_events` tables' SQL, the same in both stores but for
/// placeholders (`?n` or `$n`), and the writes that settle a claim.
enum AccountBindingTable {
    static func schema(integer: String) -> String {
        """
        CREATE TABLE account_bindings (
            environment TEXT NOT NULL, original_transaction_id TEXT NOT NULL, account_id TEXT NOT NULL,
            product_id TEXT NOT NULL, bound_ms \(integer) NOT NULL, request_id TEXT NOT NULL,
            PRIMARY KEY (environment, original_transaction_id, account_id));
        CREATE INDEX account_bindings_by_account ON account_bindings (account_id);
        CREATE TABLE account_binding_events (
            event_id TEXT PRIMARY KEY, environment TEXT NOT NULL, original_transaction_id TEXT NOT NULL,
            account_id TEXT NOT NULL, change TEXT NOT NULL, origin TEXT NOT NULL, other_accounts TEXT NOT NULL,
            at_ms \(integer) NOT NULL, request_id TEXT NOT NULL);
        CREATE INDEX account_binding_events_by_original ON account_binding_events (environment, original_transaction_id);
        """
    }

    /// The accounts holding environment 1, original transaction 2, first bound first.
    static func holders(_ placeholder: (Int) -> String) -> String {
        """
        SELECT account_id FROM account_bindings
            WHERE environment = \(placeholder(1)) AND original_transaction_id = \(placeholder(2))
            ORDER BY bound_ms, account_id
        """
    }

    /// The statements that record `outcome` of `claim`, in order; none when nothing changed.
    static func writes(_ claim: AccountClaim, _ outcome: ClaimOutcome, placeholder: (Int) -> String)
        -> [(sql: String, arguments: [String?])]
    {
        guard let change = outcome.change(origin: claim.origin) else { return [] }
        let at = LedgerTime.text(claim.at)
        var writes: [(sql: String, arguments: [String?])] = []
        if case .transferred = outcome {
            writes.append(
                (
                    "DELETE FROM account_bindings WHERE environment = \(placeholder(1)) AND original_transaction_id = \(placeholder(2))",
                    [claim.environment, claim.originalTransactionId]
                ))
        }
        if outcome.holds {
            writes.append(
                (
                    LedgerTable.accountBindings.insertStatement(placeholder: placeholder),
                    [
                        claim.environment, claim.originalTransactionId, claim.accountId, claim.productId, at,
                        claim.requestId,
                    ]
                ))
        }
        writes.append(
            (
                LedgerTable.accountBindingEvents.insertStatement(placeholder: placeholder),
                [
                    eventId(at: at), claim.environment, claim.originalTransactionId, claim.accountId, change.rawValue,
                    claim.origin.rawValue, outcome.otherAccounts.joined(separator: ","), at, claim.requestId,
                ]
            ))
        return writes
    }

    /// Events are listed by time, then by id: an id starts with the time and this process's count of events,
    /// so two claims on one purchase in the same millisecond are listed in the order they were settled.
    private static let eventCount = Atomic<Int>(0)

    static func eventId(at milliseconds: String) -> String {
        let count = String(eventCount.add(1, ordering: .relaxed).newValue)
        let padded = { (text: String, width: Int) in String(repeating: "0", count: max(0, width - text.count)) + text }
        return "\(padded(milliseconds, 15))-\(padded(count, 19))-\(UUID().uuidString)"
    }

    /// The purchases account 1 holds, in every environment, newest period first within each.
    static func holdings(_ placeholder: (Int) -> String) -> String {
        let columns = StoredPurchase.columns.map { "CAST(p.\($0) AS TEXT)" }.joined(separator: ", ")
        return """
            SELECT \(columns) FROM account_bindings b JOIN purchases p
                ON p.environment = b.environment AND p.original_transaction_id = b.original_transaction_id
                WHERE b.account_id = \(placeholder(1))
                ORDER BY p.environment, p.original_transaction_id,
                    coalesce(p.expires_date_ms, p.purchase_date_ms, 0) DESC, p.purchase_key
            """
    }

    /// The binding changes of environment 1, original transaction 2, oldest first.
    static func events(_ placeholder: (Int) -> String) -> String {
        """
        SELECT environment, original_transaction_id, account_id, change, origin, other_accounts,
            CAST(at_ms AS TEXT), request_id FROM account_binding_events
            WHERE environment = \(placeholder(1)) AND original_transaction_id = \(placeholder(2))
            ORDER BY at_ms, event_id
        """
    }

    static func event(_ row: [String?]) -> BindingEvent? {
        guard row.count == 8, let environment = row[0], let original = row[1], let account = row[2],
            let change = row[3].flatMap(BindingChange.init), let origin = row[4].flatMap(ClaimOrigin.init),
            let at = LedgerTime.date(row[6]), let request = row[7]
        else { return nil }
        return BindingEvent(
            environment: environment, originalTransactionId: original, accountId: account, change: change,
            origin: origin, otherAccounts: (row[5] ?? "").split(separator: ",").map(String.init),
            at: at, requestId: request)
    }
}
