import struct Foundation.Date

/// One grant of content: who got which product's bytes, through which purchase, and which version.
public struct Delivery: Sendable, Equatable {
    public let environment: String
    public let productId: String
    public let originalTransactionId: String
    /// SHA-256 of the content as the catalog measured it.
    public let contentSHA256: String
    public let requestId: String
    public let deliveredAt: Date

    public init(
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
