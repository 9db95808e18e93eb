extension PostgresLedger {
    package func recordDeliveryFailure(_ failure: DeliveryFailure) throws(LedgerError) {
        try pool.withConnection { connection throws(LedgerError) in
            let insert = DeliveryFailureTable.insert(failure) { "$\($0)" }
            try connection.execute(insert.sql, insert.arguments)
        }
    }

    package func deliveryFailures(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [DeliveryFailure]
    {
        try texts(DeliveryFailureTable.select { "$\($0)" }, [environment, originalTransactionId]).compactMap(
            DeliveryFailureTable.failure)
    }
}
