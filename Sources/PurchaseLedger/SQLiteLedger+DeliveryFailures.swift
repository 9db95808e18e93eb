import GRDB

extension SQLiteLedger {
    package func recordDeliveryFailure(_ failure: DeliveryFailure) throws(LedgerError) {
        try guarded {
            try pool.write { db in
                let insert = DeliveryFailureTable.insert(failure) { "?\($0)" }
                try db.execute(sql: insert.sql, arguments: StatementArguments(insert.arguments))
            }
        }
    }

    package func deliveryFailures(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [DeliveryFailure]
    {
        try texts(DeliveryFailureTable.select { "?\($0)" }, [environment, originalTransactionId]).compactMap(
            DeliveryFailureTable.failure)
    }
}
