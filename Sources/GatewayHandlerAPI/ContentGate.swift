import Foundation

/// The verification in front of content routes, implemented by the verification service. Not visible to
/// handler modules: they see its work only as the ``VerifiedEntitlement`` their `respond` is handed.
package protocol ContentGate: Sendable {
    /// The grant the credential in `request` gives to `productId`, confirmed against the ledger; throws the
    /// answer for a request without one (401, 403, 422, 503 ...).
    func grant(_ productId: String, for request: GatewayRequest, context: RequestContext) throws -> ContentGrant
    /// Records the delivery of `grant`'s product and returns the answer that hands over its content (the
    /// file, a range of it, or the web server's redirect to it) for `request`'s method and `Range`.
    func deliver(_ grant: ContentGrant, for request: GatewayRequest, context: RequestContext) throws
        -> GatewayResponse
}

/// What the gate found for a content request: the caller holds this product through this purchase, on this
/// exchange.
package struct ContentGrant: Sendable, Equatable {
    package let productId: String
    package let originalTransactionId: String
    /// `Production`, `Sandbox` or `Xcode`.
    package let environment: String
    package let expiresAt: Date?
    /// The exchange (``RequestContext/exchange``) the grant was made for; its content goes out on it alone.
    package let exchange: UInt64

    package init(
        productId: String, originalTransactionId: String, environment: String, expiresAt: Date?, exchange: UInt64
    ) {
        self.productId = productId
        self.originalTransactionId = originalTransactionId
        self.environment = environment
        self.expiresAt = expiresAt
        self.exchange = exchange
    }
}
