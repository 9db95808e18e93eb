import struct Foundation.Date

/// One App Store transaction as the ledger records it.
package struct LedgerTransaction: Sendable, Hashable {
    /// `Production`, `Sandbox` or `Xcode`.
    package var environment: String
    package var bundleId: String
    package var productId: String
    package var transactionId: String
    package var originalTransactionId: String
    package var webOrderLineItemId: String?
    /// The purchase this transaction belongs to.
    package var purchaseKey: PurchaseKey
    package var purchaseDate: Date?
    package var expiresDate: Date?
    /// Set when Apple refunded or revoked the transaction.
    package var cancellationDate: Date?
    package var quantity: Int
    /// A family member's access through Family Sharing rather than the buyer's own purchase.
    package var familyShared: Bool
    /// What the store refunded or revoked of it, whole or in part.
    package var revocation: LedgerRevocation?
    /// The customer's app transaction (Apple's `appTransactionId`), when known.
    package var appTransactionId: String?
    /// The app's claim rather than Apple's word: a known one is kept.
    package var appTransactionIdClaimedByApp: Bool

    package init(
        environment: String,
        bundleId: String,
        productId: String,
        transactionId: String,
        originalTransactionId: String,
        webOrderLineItemId: String? = nil,
        purchaseKey: PurchaseKey,
        purchaseDate: Date? = nil,
        expiresDate: Date? = nil,
        cancellationDate: Date? = nil,
        quantity: Int = 1,
        familyShared: Bool = false,
        revocation: LedgerRevocation? = nil,
        appTransactionId: String? = nil,
        appTransactionIdClaimedByApp: Bool = false
    ) {
        self.appTransactionId = appTransactionId
        self.appTransactionIdClaimedByApp = appTransactionIdClaimedByApp
        self.environment = environment
        self.bundleId = bundleId
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.purchaseKey = purchaseKey
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.quantity = quantity
        self.familyShared = familyShared
        self.revocation = revocation
    }
}

extension LedgerTransaction {
    /// The `app_transaction_source` column: `apple` for an app transaction Apple said, `app` for one the app claimed.
    var appTransactionSource: String? {
        appTransactionId == nil ? nil : appTransactionIdClaimedByApp ? "app" : "apple"
    }
}
