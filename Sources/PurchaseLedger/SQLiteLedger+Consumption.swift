import Foundation
import GRDB

extension SQLiteLedger {
    package func claimConsumptionRequests(now: Date, lease: TimeInterval, limit: Int) throws(LedgerError)
        -> [ConsumptionRequest]
    {
        let (at, until) = (LedgerTime.text(now), LedgerTime.text(now + lease))
        return try guarded {
            try pool.write { db in
                let due = try String.fetchAll(
                    db, sql: ConsumptionRequestTable.due { "?\($0)" }, arguments: [at, limit])
                return try due.compactMap { uuid in
                    try Row.fetchOne(db, sql: ConsumptionRequestTable.claim { "?\($0)" }, arguments: [uuid, at, until])
                        .flatMap { ConsumptionRequestTable.stored(Self.texts($0))?.request }
                }
            }
        }
    }

    package func settleConsumptionRequest(
        _ notificationUUID: String, state: ConsumptionRequestState, answer: String?, outcome: String, at: Date
    ) throws(LedgerError) -> Bool {
        try guarded {
            try pool.write { db in
                try Row.fetchOne(
                    db, sql: ConsumptionRequestTable.settle { "?\($0)" },
                    arguments: [
                        notificationUUID, state.rawValue, answer, outcome, LedgerTime.text(at),
                        answer == nil ? 0 : 1,
                    ]) != nil
            }
        }
    }

    package func deferConsumptionRequest(_ notificationUUID: String, until nextAttempt: Date, outcome: String)
        throws(LedgerError)
    {
        try guarded {
            try pool.write { db in
                try db.execute(
                    sql: ConsumptionRequestTable.deferral { "?\($0)" },
                    arguments: [notificationUUID, LedgerTime.text(nextAttempt), outcome])
            }
        }
    }

    package func consumptionRequests(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredConsumptionRequest]
    {
        try texts(ConsumptionRequestTable.byOriginal { "?\($0)" }, [environment, originalTransactionId])
            .compactMap(ConsumptionRequestTable.stored)
    }

    /// A row whose columns were all selected as text.
    private static func texts(_ row: Row) -> [String?] { (0..<row.count).map { row[$0] } }
}
