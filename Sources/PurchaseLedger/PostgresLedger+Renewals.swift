extension PostgresLedger {
    package func renewals(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [SubscriptionRenewal]
    {
        try texts(SubscriptionRenewalTable.select { "$\($0)" }, [environment, originalTransactionId]).compactMap(
            SubscriptionRenewalTable.renewal)
    }
}
