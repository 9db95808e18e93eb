import Foundation

extension PostgresLedger {
    package func originals(ofHandle handle: String, store: String) throws(LedgerError) -> [LedgerOriginal] {
        try texts(StoreHandle.originals { "$\($0)" }, [store, handle]).compactMap(StoreHandle.original)
    }

    package func endPurchases(of original: LedgerOriginal, at: Date, source: LedgerSource) throws(LedgerError)
        -> Int
    {
        try pool.withConnection { connection throws(LedgerError) in
            try connection.execute(
                StoreHandle.end { "$\($0)" },
                [original.environment, original.originalTransactionId, LedgerTime.text(at), source.rawValue]
            ).count
        }
    }
}
