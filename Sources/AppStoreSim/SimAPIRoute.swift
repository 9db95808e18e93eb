import Foundation

/// A Server API call the stand-in understands: the endpoint's name (as the gateway's metrics name it), the
/// id in its path and its query.
struct SimAPIRoute {
    let endpoint: String
    let id: String
    let query: [String: String]

    init?(method: String, path: Substring) {
        let parts = path.split(separator: "?", maxSplits: 1)
        var query: [String: String] = [:]
        for pair in parts.count > 1 ? parts[1].split(separator: "&") : [] {
            let field = pair.split(separator: "=", maxSplits: 1)
            query[String(field[0])] = field.count > 1 ? String(field[1]).removingPercentEncoding : ""
        }
        self.query = query
        let segments = parts.first?.split(separator: "/").map(String.init) ?? []
        guard segments.count >= 3, segments[0] == "inApps" else { return nil }
        switch (method, segments.dropFirst().joined(separator: "/")) {
        case ("GET", let rest) where rest.hasPrefix("v1/transactions/appTransactions/") && segments.count == 5:
            endpoint = "app_transaction_info"
        case ("GET", let rest) where rest.hasPrefix("v1/transactions/") && segments.count == 4:
            endpoint = "transaction_info"
        case ("GET", let rest) where rest.hasPrefix("v2/history/") && segments.count == 4:
            endpoint = "transaction_history"
        case ("GET", let rest) where rest.hasPrefix("v1/subscriptions/") && segments.count == 4:
            endpoint = "subscription_statuses"
        case ("GET", let rest) where rest.hasPrefix("v1/lookup/") && segments.count == 4:
            endpoint = "order_lookup"
        case ("GET", let rest) where rest.hasPrefix("v2/refund/lookup/") && segments.count == 5:
            endpoint = "refund_history"
        case ("POST", "v1/notifications/history"):
            endpoint = "notification_history"
        case ("PUT", let rest) where rest.hasPrefix("v2/transactions/consumption/") && segments.count == 5:
            endpoint = "consumption"
        case ("PUT", let rest)
        where rest.hasPrefix("v1/transactions/") && rest.hasSuffix("/appAccountToken") && segments.count == 5:
            endpoint = "app_account_token"
        case ("POST", let rest)
        where rest.hasPrefix("v1/transactions/") && rest.hasSuffix("/finish") && segments.count == 5:
            endpoint = "finish_transaction"
        default:
            return nil
        }
        id =
            switch endpoint {
            case "notification_history": ""
            case "app_account_token", "finish_transaction": segments[3]
            default: segments[segments.count - 1]
            }
    }
}
