import GatewayText

extension VerifiedPurchases {
    /// The transactions as API.md shows them; absent dates and a transaction nothing was refunded of are `null`,
    /// never left out.
    public func writeTransactions(to json: inout JSONWriter) {
        json.array(transactions) { json, transaction in
            json.object { json in
                json.member("app_transaction_id", transaction.appTransactionId)
                json.member("cancellation_date", date: transaction.cancellationDate)
                json.member("expires_date", date: transaction.expiresDate)
                json.key("family_shared")
                json.bool(transaction.familyShared)
                json.member("original_transaction_id", transaction.originalTransactionId)
                json.member("product_id", transaction.productId)
                json.member("purchase_date", date: transaction.purchaseDate)
                json.member("quantity", transaction.quantity)
                json.key("revocation")
                if let revocation = transaction.revocation {
                    json.object { json in
                        json.member("date", date: revocation.date)
                        json.key("percentage_milliunits")
                        json.number(revocation.percentageMilliunits)
                        json.member("quantity", revocation.quantity)
                        json.member("type", revocation.type)
                    }
                } else {
                    json.string(nil)
                }
                json.member("transaction_id", transaction.transactionId)
            }
        }
    }

    /// The `account` member (the account's id and the products other accounts keep), when the request was for
    /// an app account; nothing otherwise. It sorts before every other member of the answer.
    public func writeAccount(to json: inout JSONWriter) {
        guard let account else { return }
        json.key("account")
        json.object { json in
            json.key("held_by_other_accounts")
            json.array(account.heldByOtherAccounts) { json, productId in json.string(productId) }
            json.member("id", account.accountId)
        }
    }

    /// The entitlements as API.md shows them (``Entitlement/write(_:to:)``).
    public func writeEntitlements(to json: inout JSONWriter) { Entitlement.write(entitlements, to: &json) }
}

extension Entitlement {
    /// `entitlements` as API.md shows them; `download_token` and `download_token_expires` only when one was
    /// issued.
    public static func write(_ entitlements: [Entitlement], to json: inout JSONWriter) {
        json.array(entitlements) { json, entitlement in
            json.object { json in
                if let token = entitlement.downloadToken {
                    json.member("download_token", token.token)
                    json.member("download_token_expires", date: token.expires)
                }
                json.member("expires_date", date: entitlement.expiresDate)
                json.member("original_transaction_id", entitlement.originalTransactionId)
                json.member("product_id", entitlement.productId)
                json.member("store", entitlement.store)
            }
        }
    }
}
