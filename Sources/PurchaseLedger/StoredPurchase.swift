import struct Foundation.Date

/// A purchase as the ledger holds it.
package struct StoredPurchase: Sendable, Equatable {
    package let environment: String
    package let purchaseKey: PurchaseKey
    package let productId: String
    package let originalTransactionId: String
    /// The newest transaction seen for this purchase (restores add new ones).
    package let latestTransactionId: String
    package let expiresDate: Date?
    package let cancellationDate: Date?
    package let firstSeen: Date
    package let lastSeen: Date
    package let firstSource: LedgerSource
    package let lastSource: LedgerSource

    package init(
        environment: String,
        purchaseKey: PurchaseKey,
        productId: String,
        originalTransactionId: String,
        latestTransactionId: String,
        expiresDate: Date?,
        cancellationDate: Date?,
        firstSeen: Date,
        lastSeen: Date,
        firstSource: LedgerSource,
        lastSource: LedgerSource
    ) {
        self.environment = environment
        self.purchaseKey = purchaseKey
        self.productId = productId
        self.originalTransactionId = originalTransactionId
        self.latestTransactionId = latestTransactionId
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.firstSource = firstSource
        self.lastSource = lastSource
    }
}

extension StoredPurchase {
    /// The `purchases` columns a stored purchase is read from, in order.
    static let columns = [
        "environment", "purchase_key", "product_id", "original_transaction_id", "latest_transaction_id",
        "expires_date_ms", "cancellation_date_ms", "first_seen_ms", "last_seen_ms", "first_source", "last_source",
    ]

    /// A purchase from its ``columns`` read as text.
    init(texts row: [String?]) {
        let date: (String?) -> Date? = LedgerTime.date
        self.init(
            environment: row[0] ?? "", purchaseKey: PurchaseKey(rawValue: row[1] ?? ""), productId: row[2] ?? "",
            originalTransactionId: row[3] ?? "", latestTransactionId: row[4] ?? "", expiresDate: date(row[5]),
            cancellationDate: date(row[6]), firstSeen: date(row[7]) ?? Date(), lastSeen: date(row[8]) ?? Date(),
            firstSource: LedgerSource(rawValue: row[9] ?? "") ?? .verify,
            lastSource: LedgerSource(rawValue: row[10] ?? "") ?? .verify)
    }
}
