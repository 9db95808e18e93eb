import GatewayCore

extension VerifiedPurchases {
    /// The transactions as API.md shows them; absent dates are `null`, never left out.
    public func writeTransactions(to json: inout JSONWriter) {
        json.array(transactions) { json, transaction in
            json.object { json in
                json.key("cancellation_date")
                json.date(transaction.cancellationDate)
                json.key("expires_date")
                json.date(transaction.expiresDate)
                json.key("original_transaction_id")
                json.string(transaction.originalTransactionId)
                json.key("product_id")
                json.string(transaction.productId)
                json.key("purchase_date")
                json.date(transaction.purchaseDate)
                json.key("quantity")
                json.number(transaction.quantity)
                json.key("transaction_id")
                json.string(transaction.transactionId)
            }
        }
    }

    /// The entitlements as API.md shows them; `download_token` and `download_token_expires` only when one
    /// was issued.
    public func writeEntitlements(to json: inout JSONWriter) {
        json.array(entitlements) { json, entitlement in
            json.object { json in
                if let token = entitlement.downloadToken {
                    json.key("download_token")
                    json.string(token.token)
                    json.key("download_token_expires")
                    json.date(token.expires)
                }
                json.key("expires_date")
                json.date(entitlement.expiresDate)
                json.key("original_transaction_id")
                json.string(entitlement.originalTransactionId)
                json.key("product_id")
                json.string(entitlement.productId)
            }
        }
    }
}
