import GatewayHandlerAPI
import PurchaseVerification

/// A Google Play purchase as the app sends it: `{"store": "google-play", "purchase-token": "…", "product-id": "…"}`,
/// with `package-name` when the server sells for several apps. The token is a credential: it is never logged.
struct GooglePlayCredential: StoreCredential {
    static let members = #""purchase-token" (with "store": "google-play")"#
    static let exampleBody = #"{"store": "google-play", "purchase-token": "…", "product-id": "…"}"#
    /// Google's tokens are about 150 characters; this bounds what a client can make the gateway send.
    static let maxTokenLength = 4096

    let token: String
    /// The product the app bought, as Google names it; needed for subscriptions (subscriptionsv2 is asked for
    /// a product the catalog sells as auto-renewable, productsv2 otherwise).
    let productId: String?
    let packageName: String?

    /// The credential in `body`; nil when it names another store or carries no purchase token; 400 for a
    /// malformed one.
    init?(body: PurchaseBody) throws(GatewayError) {
        let store = try body.string("store", wrongType: .badRequest("\"store\" must be a string."))
        guard store == nil || store == "google-play" else { return nil }
        guard
            let token = try body.string(
                "purchase-token", wrongType: .badRequest("\"purchase-token\" must be a string."))
        else {
            if store != nil { throw .badRequest("A Google Play purchase needs its \"purchase-token\".") }
            return nil
        }
        guard !token.isEmpty, token.utf8.count <= Self.maxTokenLength,
            token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw .badRequest(
                "\"purchase-token\" must be Google Play's purchase token (printable ASCII, at most 4096).")
        }
        self.token = token
        productId = try body.string("product-id", wrongType: .badRequest("\"product-id\" must be a string."))
        packageName = try body.string("package-name", wrongType: .badRequest("\"package-name\" must be a string."))
    }
}
