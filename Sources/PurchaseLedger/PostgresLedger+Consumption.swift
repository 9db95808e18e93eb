import Foundation

extension PostgresLedger {
    package func claimConsumptionRequests(now: Date, lease: TimeInterval, limit: Int) throws(LedgerError)
        -> [ConsumptionRequest]
    {
        let (at, until) = (LedgerTime.text(now), LedgerTime.text(now + lease))
        return try pool.withConnection { connection throws(LedgerError) in
            let due = try connection.execute(ConsumptionRequestTable.due { "$\($0)" }, [at, String(limit)])
            var claimed: [ConsumptionRequest] = []
            // Each claim re-checks its row under PostgreSQL's row lock: of two gateways, one wins it.
            for uuid in due.compactMap({ $0.first ?? nil }) {
                let rows = try connection.execute(ConsumptionRequestTable.claim { "$\($0)" }, [uuid, at, until])
                if let request = rows.first.flatMap(ConsumptionRequestTable.stored)?.request { claimed.append(request) }
            }
            return claimed
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
        try pool.withConnection { connection throws(LedgerError) in
            try connection.execute(
                ConsumptionRequestTable.deferral { "$\($0)" },
                [notificationUUID, LedgerTime.text(nextAttempt), outcome])
        }
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
