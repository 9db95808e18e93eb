import Foundation

extension VerifiedPurchases {
    /// A transaction as API.md shows it; absent dates are `null`, never left out.
    public struct TransactionJSON: Encodable, Sendable {
        let transaction: PurchaseTransaction

        enum CodingKeys: String, CodingKey {
            case transactionId = "transaction_id"
            case originalTransactionId = "original_transaction_id"
            case productId = "product_id"
            case purchaseDate = "purchase_date"
            case expiresDate = "expires_date"
            case cancellationDate = "cancellation_date"
            case quantity
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(transaction.transactionId, forKey: .transactionId)
            try container.encode(transaction.originalTransactionId, forKey: .originalTransactionId)
            try container.encode(transaction.productId, forKey: .productId)
            try container.encode(transaction.purchaseDate.map(Self.rfc3339), forKey: .purchaseDate)
            try container.encode(transaction.expiresDate.map(Self.rfc3339), forKey: .expiresDate)
            try container.encode(transaction.cancellationDate.map(Self.rfc3339), forKey: .cancellationDate)
            try container.encode(transaction.quantity, forKey: .quantity)
        }

        /// RFC 3339 in UTC, whole seconds: `2026-10-01T12:00:00Z`.
        static func rfc3339(_ date: Date) -> String { date.formatted(.iso8601) }
    }

    /// An entitlement as API.md shows it; `download_token` and `download_token_expires` only when one was issued.
    public struct EntitlementJSON: Encodable, Sendable {
        let entitlement: Entitlement

        enum CodingKeys: String, CodingKey {
            case productId = "product_id"
            case originalTransactionId = "original_transaction_id"
            case expiresDate = "expires_date"
            case downloadToken = "download_token"
            case downloadTokenExpires = "download_token_expires"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(entitlement.productId, forKey: .productId)
            try container.encode(entitlement.originalTransactionId, forKey: .originalTransactionId)
            try container.encode(entitlement.expiresDate.map(TransactionJSON.rfc3339), forKey: .expiresDate)
            if let token = entitlement.downloadToken {
                try container.encode(token.token, forKey: .downloadToken)
                try container.encode(TransactionJSON.rfc3339(token.expires), forKey: .downloadTokenExpires)
            }
        }
    }

    public var transactionsJSON: [TransactionJSON] { transactions.map(TransactionJSON.init) }

    public var entitlementsJSON: [EntitlementJSON] { entitlements.map(EntitlementJSON.init) }
}
