import struct Foundation.Date

/// One grant of content: who got which product's bytes, through which purchase, and which version.
package struct Delivery: Sendable, Equatable {
    package let environment: String
    package let productId: String
    package let originalTransactionId: String
    /// SHA-256 of the content as the catalog measured it.
    package let contentSHA256: String
    package let requestId: String
    package let deliveredAt: Date

    package init(
        environment: String,
        productId: String,
        originalTransactionId: String,
        contentSHA256: String,
        requestId: String,
        deliveredAt: Date = Date()
    ) {
        self.environment = environment
        self.productId = productId
        self.originalTransactionId = originalTransactionId
        self.contentSHA256 = contentSHA256
        self.requestId = requestId
        self.deliveredAt = deliveredAt
    }
}
