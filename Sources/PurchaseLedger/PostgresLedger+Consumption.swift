import Foundation

extension PostgresLedger {
    package func claimConsumptionRequests(store: String, now: Date, lease: TimeInterval, limit: Int)
        throws(LedgerError) -> [ConsumptionRequest]
    {
        try claim(ConsumptionRequestTable.leased, scope: store, now: now, lease: lease, limit: limit) {
            ConsumptionRequestTable.stored($0)?.request
        }
    }

    package func settleConsumptionRequest(
        _ notificationUUID: String, state: ConsumptionRequestState, answer: String?, outcome: String, at: Date
    ) throws(LedgerError) -> Bool {
        try pool.withConnection { connection throws(LedgerError) in
            !(try connection.execute(
                ConsumptionRequestTable.settle { "$\($0)" },
                [
                    notificationUUID, state.rawValue, answer, outcome, LedgerTime.text(at),
                    answer == nil ? "0" : "1",
                ])).isEmpty
        }
    }

    package func deferConsumptionRequest(_ notificationUUID: String, until nextAttempt: Date, outcome: String)
        throws(LedgerError)
    {
        try deferLeased(ConsumptionRequestTable.leased, notificationUUID, until: nextAttempt, outcome: outcome)
    }

    package func consumptionRequests(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredConsumptionRequest]
    {
        try pool.withConnection { connection throws(LedgerError) in
            try connection.execute(
                ConsumptionRequestTable.byOriginal { "$\($0)" }, [environment, originalTransactionId]
            )
            .compactMap(ConsumptionRequestTable.stored)
        }
    }
}
