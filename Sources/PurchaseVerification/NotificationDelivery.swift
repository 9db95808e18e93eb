/// A store server notification as it reached the gateway: its body, and the `Authorization` header of a store
/// that authenticates its pushes with one (Google's Pub/Sub OIDC token); a backfill's has none.
package struct NotificationDelivery: Sendable {
    package let body: [UInt8]
    package let authorization: String?

    package init(body: [UInt8], authorization: String? = nil) {
        self.body = body
        self.authorization = authorization
    }
}
