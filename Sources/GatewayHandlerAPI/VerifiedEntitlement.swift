import Foundation

/// Proof that the load's verification checked the caller's right to one product, for one request.
///
/// Only the content route makes one, after the credential was verified and the purchase confirmed against the
/// ledger, and hands it to its ``ContentHandler``. It cannot outlive that call: it is non-escapable, so it
/// cannot be stored, captured by an escaping closure or kept for another request. The content it delivers is
/// its own product's, and goes out on its own request only.
public struct VerifiedEntitlement: ~Escapable {
    public let productId: String
    /// The purchase the right comes from (stable across restores).
    public let originalTransactionId: String
    /// `Production`, `Sandbox` or `Xcode`.
    public let environment: String
    /// End of the subscription period, or nil for purchases that do not expire.
    public let expiresAt: Date?
    private let grant: ContentGrant
    private let gate: any ContentGate
    /// The request that was verified, as the transport decoded it, and its context.
    private let request: GatewayRequest
    private let context: RequestContext

    @_lifetime(immortal)
    init(grant: ContentGrant, gate: any ContentGate, request: GatewayRequest, context: RequestContext) {
        productId = grant.productId
        originalTransactionId = grant.originalTransactionId
        environment = grant.environment
        expiresAt = grant.expiresAt
        self.grant = grant
        self.gate = gate
        self.request = request
        self.context = context
    }

    /// The answer that hands over this product's content for the request that was verified (its method and
    /// `Range`): the file, a range of it (206, or 416 for a range outside it), or the web server's redirect to
    /// it, with its type, name and caching headers. The grant is recorded in the ledger first: without a record
    /// there is no download (503 `ledger_unavailable`, retryable). Add headers to shape the answer; the content
    /// itself cannot be changed. Only while the request that was verified is being answered: an entitlement
    /// kept past it (a copy in a global `Optional`, which the compiler let escape) records nothing and answers
    /// nothing (500, logged), where a twenty-first reviewer's thread recorded a delivery every 200 ms.
    /// Once per request: a second call records nothing and answers 500, logged.
    public func content() throws -> GatewayResponse {
        guard let current = CurrentExchange.current, current.number == grant.exchange else {
            context.logger.error("a handler asked for content outside the request that was verified; refused")
            throw GatewayError.internalError
        }
        guard current.claimDelivery() else {
            context.logger.error("a handler asked for content a second time for one request; refused")
            throw GatewayError.internalError
        }
        return try gate.deliver(grant, for: request, context: context)
    }
}
