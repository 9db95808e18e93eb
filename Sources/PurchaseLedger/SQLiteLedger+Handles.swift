import Foundation
import GRDB

extension SQLiteLedger {
    package func originals(ofHandle handle: String, store: String) throws(LedgerError) -> [LedgerOriginal] {
        try texts(StoreHandle.originals { "?\($0)" }, [store, handle]).compactMap(StoreHandle.original)
    }

    package func endPurchases(of original: LedgerOriginal, at: Date, source: LedgerSource) throws(LedgerError)
        -> Int
    {
        try guarded {
            try pool.write { db in
                try Row.fetchAll(
                    db, sql: StoreHandle.end { "?\($0)" },
                    arguments: [
                        original.environment, original.originalTransactionId, LedgerTime.milliseconds(at),
                        source.rawValue,
                    ]
                ).count
            }
        }
    }
}
