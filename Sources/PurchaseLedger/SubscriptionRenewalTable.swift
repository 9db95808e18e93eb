/// The `subscription_renewals` table's SQL, the same in both stores but for placeholders (`?n` or `$n`): one row
/// per signed renewal info, by subscription and Apple's signing time.
enum SubscriptionRenewalTable {
    /// Migration 15.
    static func schema(integer: String) -> String {
        """
        CREATE TABLE subscription_renewals (
            environment TEXT NOT NULL, original_transaction_id TEXT NOT NULL, signed_ms \(integer) NOT NULL,
            product_id TEXT NOT NULL, auto_renew_product_id TEXT, auto_renews INTEGER, expiration_intent INTEGER,
            in_billing_retry INTEGER, grace_period_expires_ms \(integer), price_increase_consented INTEGER,
            request_id TEXT NOT NULL, PRIMARY KEY (environment, original_transaction_id, signed_ms));
        """
    }

    /// The statement and arguments that record `renewal` (the same signed one again is kept once).
    static func insert(_ renewal: SubscriptionRenewal, placeholder: (Int) -> String)
        -> (sql: String, arguments: [String?])
    {
        let flag = { (value: Bool?) in value.map { $0 ? "1" : "0" } }
        return (
            LedgerTable.subscriptionRenewals.insertStatement(placeholder: placeholder),
            [
                renewal.environment, renewal.originalTransactionId, LedgerTime.text(renewal.signedAt),
                renewal.productId, renewal.autoRenewProductId, flag(renewal.autoRenews),
                renewal.expirationIntent.map(String.init), flag(renewal.inBillingRetry),
                renewal.gracePeriodExpires.map(LedgerTime.text), flag(renewal.priceIncreaseConsented),
                renewal.requestId,
            ]
        )
    }

    /// The renewals of one subscription, oldest first.
    static func select(placeholder: (Int) -> String) -> String {
        """
        SELECT environment, original_transaction_id, CAST(signed_ms AS TEXT), product_id, auto_renew_product_id,
            CAST(auto_renews AS TEXT), CAST(expiration_intent AS TEXT), CAST(in_billing_retry AS TEXT),
            CAST(grace_period_expires_ms AS TEXT), CAST(price_increase_consented AS TEXT), request_id
        FROM subscription_renewals
        WHERE environment = \(placeholder(1)) AND original_transaction_id = \(placeholder(2))
        ORDER BY signed_ms
        """
    }

    /// A row of ``select(placeholder:)`` as a renewal.
    static func renewal(_ row: [String?]) -> SubscriptionRenewal? {
        guard row.count == 11, let environment = row[0], let original = row[1], let signed = LedgerTime.date(row[2]),
            let product = row[3], let request = row[10]
        else { return nil }
        let flag = { (text: String?) in text.map { $0 == "1" } }
        return SubscriptionRenewal(
            environment: environment, originalTransactionId: original, productId: product,
            autoRenewProductId: row[4], autoRenews: flag(row[5]), expirationIntent: row[6].flatMap { Int($0) },
            inBillingRetry: flag(row[7]), gracePeriodExpires: LedgerTime.date(row[8]),
            priceIncreaseConsented: flag(row[9]), signedAt: signed, requestId: request)
    }
}
