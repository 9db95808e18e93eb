import Foundation

/// A call to the Play Developer API's purchases methods, read from its path as Google routes it.
struct SimGoogleCall {
    enum Action { case get, acknowledge, consume }

    let packageName: String
    let token: String
    let productId: String?
    let isSubscription: Bool
    let action: Action
    /// The method's name in Google's discovery document, less `androidpublisher.`.
    let endpoint: String

    init?(method: String, path: String) {
        let prefix = "/androidpublisher/v3/applications/"
        guard path.hasPrefix(prefix) else { return nil }
        // A custom method (`:acknowledge`) is read before the segments are decoded, as Google reads it: an
        // escaped colon is part of the token.
        let raw = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard let last = raw.last else { return nil }
        let colon = last.lastIndex(of: ":")
        let verb = colon.map { String(last[last.index(after: $0)...]) } ?? ""
        var segments = raw.map { $0.removingPercentEncoding ?? String($0) }
        segments[segments.count - 1] = String(last[..<(colon ?? last.endIndex)]).removingPercentEncoding ?? ""
        guard segments.count >= 5, segments[1] == "purchases" else { return nil }
        packageName = segments[0]
        token = segments[segments.count - 1]
        switch (method, segments.count, segments[2], segments[segments.count - 2], verb) {
        case ("GET", 5, "productsv2", "tokens", ""):
            (productId, isSubscription, action, endpoint) = (
                nil, false, .get, "purchases.productsv2.getproductpurchasev2"
            )
        case ("GET", 5, "subscriptionsv2", "tokens", ""):
            (productId, isSubscription, action, endpoint) = (nil, true, .get, "purchases.subscriptionsv2.get")
        case ("POST", 6, "products", "tokens", "acknowledge"):
            (productId, isSubscription, action, endpoint) = (
                segments[3], false, .acknowledge, "purchases.products.acknowledge"
            )
        case ("POST", 6, "products", "tokens", "consume"):
            (productId, isSubscription, action, endpoint) = (segments[3], false, .consume, "purchases.products.consume")
        case ("POST", 6, "subscriptions", "tokens", "acknowledge"):
            (productId, isSubscription, action, endpoint) = (
                segments[3], true, .acknowledge, "purchases.subscriptions.acknowledge"
            )
        default: return nil
        }
    }
}
