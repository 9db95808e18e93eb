import struct Foundation.Date

/// What the store said, at one moment, about how a subscription renews (Apple's signed renewal info): whether
/// it will, into which product, why it will not, and whether it is in billing retry or a grace period or waits
/// for the customer's consent to a price increase. Kept per notification, so support sees how it changed.
package struct SubscriptionRenewal: Sendable, Equatable {
    package let environment: String
    package let originalTransactionId: String
    package let productId: String
    /// The product it renews into (a crossgrade shows here first).
    package let autoRenewProductId: String?
    /// Whether it renews at the end of the period; nil when the store did not say.
    package let autoRenews: Bool?
    /// Why it stopped or will stop renewing (Apple's `expirationIntent`, 1 to 5).
    package let expirationIntent: Int?
    /// Whether the store is still trying to collect the renewal's payment.
    package let inBillingRetry: Bool?
    /// Until when the customer keeps access while the store retries the payment.
    package let gracePeriodExpires: Date?
    /// Whether the customer agreed to a price increase (nil: none asked, or the store did not say).
    package let priceIncreaseConsented: Bool?
    /// When the store signed it: a later one says more.
    package let signedAt: Date
    /// The request that recorded it.
    package let requestId: String

    package init(
        environment: String, originalTransactionId: String, productId: String, autoRenewProductId: String?,
        autoRenews: Bool?, expirationIntent: Int?, inBillingRetry: Bool?, gracePeriodExpires: Date?,
        priceIncreaseConsented: Bool?, signedAt: Date, requestId: String
    ) {
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.autoRenewProductId = autoRenewProductId
        self.autoRenews = autoRenews
        self.expirationIntent = expirationIntent
        self.inBillingRetry = inBillingRetry
        self.gracePeriodExpires = gracePeriodExpires
        self.priceIncreaseConsented = priceIncreaseConsented
        self.signedAt = signedAt
        self.requestId = requestId
    }
}
