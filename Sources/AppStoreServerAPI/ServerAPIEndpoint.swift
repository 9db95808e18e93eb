/// The App Store Server API endpoints the gateway calls; the raw value names them in metrics and budgets.
package enum ServerAPIEndpoint: String, CaseIterable, Sendable {
    case transactionInfo = "transaction_info"
    case transactionHistory = "transaction_history"
    case subscriptionStatuses = "subscription_statuses"
    case orderLookup = "order_lookup"
    case refundHistory = "refund_history"
    case notificationHistory = "notification_history"
    case consumption
    case appAccountToken = "app_account_token"
    case finishTransaction = "finish_transaction"
    case appTransactionInfo = "app_transaction_info"
}
