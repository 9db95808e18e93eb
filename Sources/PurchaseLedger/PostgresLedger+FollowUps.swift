import Foundation

extension PostgresLedger {
    package func claimFollowUps(store: String, now: Date, lease: TimeInterval, limit: Int) throws(LedgerError)
        -> [StoreFollowUp]
    {
        try claim(StoreFollowUpTable.leased, scope: store, now: now, lease: lease, limit: limit) {
            StoreFollowUpTable.stored($0)?.followUp
        }
    }

    package func settleFollowUp(_ key: String, state: StoreFollowUpState, outcome: String, at: Date)
        throws(LedgerError) -> Bool
    {
        try pool.withConnection { connection throws(LedgerError) in
            !(try connection.execute(
                StoreFollowUpTable.settle { "$\($0)" }, [key, state.rawValue, outcome, LedgerTime.text(at)])).isEmpty
        }
    }

    package func deferFollowUp(_ key: String, until nextAttempt: Date, outcome: String) throws(LedgerError) {
        try deferLeased(StoreFollowUpTable.leased, key, until: nextAttempt, outcome: outcome)
    }

    package func followUps(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredFollowUp]
    {
        try texts(StoreFollowUpTable.byOriginal { "$\($0)" }, [environment, originalTransactionId])
            .compactMap(StoreFollowUpTable.stored)
    }

    package func followUpBacklog(store: String) throws(LedgerError) -> [FollowUpBacklog] {
        try texts(StoreFollowUpTable.backlog { "$\($0)" }, [store]).compactMap(FollowUpBacklog.init)
    }
}
