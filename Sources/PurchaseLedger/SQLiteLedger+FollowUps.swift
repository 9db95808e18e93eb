import Foundation
import GRDB

extension SQLiteLedger {
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
        try guarded {
            try pool.write { db in
                try Row.fetchOne(
                    db, sql: StoreFollowUpTable.settle { "?\($0)" },
                    arguments: [key, state.rawValue, outcome, LedgerTime.text(at)]) != nil
            }
        }
    }

    package func deferFollowUp(_ key: String, until nextAttempt: Date, outcome: String) throws(LedgerError) {
        try deferLeased(StoreFollowUpTable.leased, key, until: nextAttempt, outcome: outcome)
    }

    package func followUps(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredFollowUp]
    {
        try texts(StoreFollowUpTable.byOriginal { "?\($0)" }, [environment, originalTransactionId])
            .compactMap(StoreFollowUpTable.stored)
    }

    package func followUpBacklog(store: String) throws(LedgerError) -> [FollowUpBacklog] {
        try texts(StoreFollowUpTable.backlog { "?\($0)" }, [store]).compactMap(FollowUpBacklog.init)
    }
}
