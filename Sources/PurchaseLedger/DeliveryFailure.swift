import struct Foundation.Date

/// A download this gateway failed to deliver once the grant was confirmed: it answered a server error (a catalog
/// file missing, the ledger refusing the delivery record, the request's time spent). A refund answer tells the
/// store a purchase whose downloads all failed this way was not delivered because of an outage on our side.
package struct DeliveryFailure: Sendable, Equatable {
    package let environment: String
    package let productId: String
    package let originalTransactionId: String
    /// The request that failed; one failure per request.
    package let requestId: String
    /// The HTTP status the gateway answered (5xx).
    package let status: Int
    /// What went wrong, in words, for support.
    package let reason: String
    package let failedAt: Date

    package init(
        environment: String, productId: String, originalTransactionId: String, requestId: String, status: Int,
        reason: String, failedAt: Date = Date()
    ) {
        self.environment = environment
        self.productId = productId
        self.originalTransactionId = originalTransactionId
        self.requestId = requestId
        self.status = status
        self.reason = reason
        self.failedAt = failedAt
    }
}
