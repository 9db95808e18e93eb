/// The ledger's tables as `storegate ledger copy` sees them: the same columns in every store, read and written
/// as text (SQLite and PostgreSQL both convert text to their integer columns).
package enum LedgerTable: String, Sendable, CaseIterable {
    case purchases, transactions, deliveries, notifications
    case consumptionRequests = "consumption_requests"
    case backfills
    case accountBindings = "account_bindings"
    case accountBindingEvents = "account_binding_events"
    case freeGrants = "free_grants"
    case restores
    case storeFollowUps = "store_follow_ups"
    case storeHandles = "store_handles"
    case deliveryFailures = "delivery_failures"
    case subscriptionRenewals = "subscription_renewals"
    case events
    case eventEndpoints = "event_endpoints"
    case eventDeliveries = "event_deliveries"

    /// Every column, primary key first.
    var columns: [String] {
        switch self {
        case .purchases:
            return [
                "environment", "purchase_key", "product_id", "bundle_id", "original_transaction_id",
                "latest_transaction_id", "web_order_line_item_id", "purchase_date_ms", "expires_date_ms",
                "cancellation_date_ms", "quantity", "first_seen_ms", "last_seen_ms", "first_source", "last_source",
                "first_request_id",
            ]
        case .transactions:
            return [
                "environment", "transaction_id", "purchase_key", "product_id", "original_transaction_id",
                "web_order_line_item_id", "purchase_date_ms", "expires_date_ms", "cancellation_date_ms", "quantity",
                "first_seen_ms", "last_seen_ms", "source", "request_id", "ownership", "revocation_date_ms",
                "revocation_type", "revocation_percentage", "revoked_quantity", "app_transaction_id",
                "app_transaction_source",
            ]
        case .deliveries:
            return [
                "id", "environment", "product_id", "original_transaction_id", "content_sha256", "request_id",
                "delivered_ms",
            ]
        case .notifications:
            return [
                "notification_uuid", "environment", "notification_type", "subtype", "received_ms", "request_id",
                "original_transaction_id", "expired_ms",
            ]
        case .consumptionRequests:
            return [
                "notification_uuid", "environment", "transaction_id", "original_transaction_id", "product_id",
                "requested_ms", "state", "attempts", "next_attempt_ms", "claimed_until_ms", "settled_ms", "answer",
                "outcome", "store", "app", "subject",
            ]
        case .backfills:
            return [
                "backfill_id", "trigger", "from_ms", "to_ms", "listed", "recorded", "duplicates", "refused",
                "finished_ms",
            ]
        case .accountBindings:
            return ["environment", "original_transaction_id", "account_id", "product_id", "bound_ms", "request_id"]
        case .accountBindingEvents:
            return [
                "event_id", "environment", "original_transaction_id", "account_id", "change", "origin",
                "other_accounts", "at_ms", "request_id",
            ]
        case .freeGrants:
            return [
                "grant_id", "environment", "product_id", "account_id", "customer_original_transaction_id", "reason",
                "granted_by", "granted_ms", "expires_ms", "revoked_ms", "revoked_by", "revoke_reason", "request_id",
            ]
        case .restores:
            return ["environment", "original_transaction_id", "request_id", "restored_ms"]
        case .storeFollowUps:
            return [
                "follow_up_key", "store", "action", "environment", "original_transaction_id", "product_id", "app",
                "store_product_id", "subject", "after_delivery", "state", "attempts", "next_attempt_ms",
                "claimed_until_ms", "created_ms", "settled_ms", "outcome",
            ]
        case .storeHandles:
            return ["store", "handle", "environment", "original_transaction_id", "recorded_ms"]
        case .deliveryFailures:
            return [
                "request_id", "environment", "product_id", "original_transaction_id", "status", "reason", "failed_ms",
            ]
        case .subscriptionRenewals:
            return [
                "environment", "original_transaction_id", "signed_ms", "product_id", "auto_renew_product_id",
                "auto_renews", "expiration_intent", "in_billing_retry", "grace_period_expires_ms",
                "price_increase_consented", "request_id",
            ]
        case .events:
            return [
                "seq", "event_id", "type", "at_ms", "environment", "original_transaction_id", "product_id",
                "account_id", "facts",
            ]
        case .eventEndpoints:
            return ["name", "types", "environments", "active", "configured_ms"]
        case .eventDeliveries:
            return [
                "seq", "endpoint", "environment", "original_transaction_id", "state", "attempts", "next_attempt_ms",
                "claimed_until_ms", "settled_ms", "outcome",
            ]
        }
    }

    /// How many leading columns form the primary key.
    private var keyLength: Int {
        switch self {
        case .purchases, .transactions, .storeHandles, .eventDeliveries: 2
        case .accountBindings, .restores, .subscriptionRenewals: 3
        default: 1
        }
    }

    /// The primary key of a row of this table.
    func key(of row: [String?]) -> [String?] { Array(row.prefix(keyLength)) }

    /// One page of rows in key order, after the key bound to the first parameters when `afterKey`.
    func pageQuery(afterKey: Bool, limit: Int, placeholder: (Int) -> String) -> String {
        let key = columns.prefix(keyLength).joined(separator: ", ")
        let bound = (1...keyLength).map(placeholder).joined(separator: ", ")
        let selected = columns.map { "CAST(\($0) AS TEXT)" }.joined(separator: ", ")
        let filter = afterKey ? " WHERE (\(key)) > (\(bound))" : ""
        // Qualified: PostgreSQL would order by a selected column of the same name, the key as text (10 before 2).
        let order = columns.prefix(keyLength).map { "\(rawValue).\($0)" }.joined(separator: ", ")
        return "SELECT \(selected) FROM \(rawValue)\(filter) ORDER BY \(order) LIMIT \(limit)"
    }

    /// Inserts one row unless its key is already there.
    func insertStatement(placeholder: (Int) -> String) -> String {
        let values = (1...columns.count).map(placeholder).joined(separator: ", ")
        return "INSERT INTO \(rawValue) (\(columns.joined(separator: ", "))) VALUES (\(values)) ON CONFLICT DO NOTHING"
    }
}
