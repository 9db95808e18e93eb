extension AppReceipt.InAppPurchase {
    /// Reads an in-app record: 1701 quantity, 1702 product, 1703 transaction, 1705 original transaction,
    /// 1704/1706 purchase dates, 1708 expiry, 1711 web order line item, 1712 cancellation.
    init(fields: ReceiptFields) throws {
        guard let product = fields[1702], let transaction = fields[1703] else {
            throw SignedDataError.malformed("an in-app record lacks its product or transaction id")
        }
        productId = try AppReceipt.string(product)
        transactionId = try AppReceipt.string(transaction)
        originalTransactionId = try fields[1705].map(AppReceipt.string) ?? transactionId
        quantity = try fields[1701].map { Int(clamping: try AppReceipt.integer($0)) } ?? 1
        purchaseDate = try fields[1704].flatMap(AppReceipt.date)
        originalPurchaseDate = try fields[1706].flatMap(AppReceipt.date)
        expiresDate = try fields[1708].flatMap(AppReceipt.date)
        cancellationDate = try fields[1712].flatMap(AppReceipt.date)
        webOrderLineItemId = try fields[1711].map { String(try AppReceipt.integer($0)) }.flatMap {
            $0 == "0" ? nil : $0
        }
    }
}
