extension AppleTransaction {
    /// The verifyReceipt names of a StoreKit 2 JWSTransaction's fields (dates there are milliseconds, and a
    /// refund or revocation is `revocationDate`).
    private static let signedFieldNames = [
        "transactionId": "transaction_id", "originalTransactionId": "original_transaction_id",
        "productId": "product_id", "webOrderLineItemId": "web_order_line_item_id",
        "purchaseDate": "purchase_date_ms", "expiresDate": "expires_date_ms", "revocationDate": "cancellation_date_ms",
    ]

    /// Reads the payload of a verified StoreKit 2 signed transaction; every field it has stays in `fields`.
    init?(signedPayload payload: JSONValue) {
        guard case .object(var members) = payload else { return nil }
        for (signedName, receiptName) in Self.signedFieldNames {
            if let value = members[signedName] { members[receiptName] = value }
        }
        self.init(.object(members))
    }
}
