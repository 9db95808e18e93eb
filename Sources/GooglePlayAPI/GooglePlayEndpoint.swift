import Foundation
import NIOHTTP1

/// The Play Developer API methods the gateway calls, named by their id in Google's discovery document (less
/// `androidpublisher.`), with the HTTP method and the path template the discovery document gives; a test holds
/// both to the document bundled with google-api-python-client.
package enum GooglePlayEndpoint: String, CaseIterable, Sendable {
    case productPurchase = "purchases.productsv2.getproductpurchasev2"
    case subscriptionPurchase = "purchases.subscriptionsv2.get"
    case acknowledgeProduct = "purchases.products.acknowledge"
    case acknowledgeSubscription = "purchases.subscriptions.acknowledge"
    case consumeProduct = "purchases.products.consume"
    case voidedPurchases = "purchases.voidedpurchases.list"
    case reviewRefund = "orders.reviewrefund"

    package var method: HTTPMethod {
        switch self {
        case .productPurchase, .subscriptionPurchase, .voidedPurchases: .GET
        case .acknowledgeProduct, .acknowledgeSubscription, .consumeProduct, .reviewRefund: .POST
        }
    }

    /// The path under the API's base URL, with `{name}` for each parameter.
    package var pathTemplate: String {
        let application = "androidpublisher/v3/applications/{packageName}/purchases"
        return switch self {
        case .reviewRefund: "androidpublisher/v3/applications/{packageName}/orders/{orderId}:reviewrefund"
        case .productPurchase: application + "/productsv2/tokens/{token}"
        case .subscriptionPurchase: application + "/subscriptionsv2/tokens/{token}"
        case .acknowledgeProduct: application + "/products/{productId}/tokens/{token}:acknowledge"
        case .acknowledgeSubscription: application + "/subscriptions/{subscriptionId}/tokens/{token}:acknowledge"
        case .consumeProduct: application + "/products/{productId}/tokens/{token}:consume"
        case .voidedPurchases: application + "/voidedpurchases"
        }
    }

    /// The query parameters the gateway sends (each named so in the discovery document).
    package var queryParameters: [String] {
        switch self {
        case .voidedPurchases: ["type", "startTime", "endTime", "maxResults", "token"]
        default: []
        }
    }

    /// The path with `values` in place of its parameters, each escaped as one path segment: a purchase token
    /// comes from a client's request, and must not reach another path or method of the API.
    package func path(_ values: [String: String]) -> String {
        var path = pathTemplate
        for (name, value) in values {
            let segment = value.addingPercentEncoding(withAllowedCharacters: Self.segment) ?? ""
            path = path.replacingOccurrences(of: "{\(name)}", with: segment)
        }
        return path
    }

    /// `parameters` as a query string, in name order, each value escaped as a path segment is.
    package static func query(_ parameters: [String: String]) -> String {
        parameters.sorted { $0.key < $1.key }.map { name, value in
            name + "=" + (value.addingPercentEncoding(withAllowedCharacters: segment) ?? "")
        }.joined(separator: "&")
    }

    /// Unreserved characters only (RFC 3986): `/`, `:`, `?`, `#`, `%` and dots of a value are all escaped, and a
    /// value of dots alone too.
    private static let segment = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_~")
}
