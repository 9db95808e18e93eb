import Foundation

extension PostgresLedger {
    package func claim(_ claim: AccountClaim) throws(LedgerError) -> ClaimOutcome {
        // The common case, an account coming back for what it holds, is settled by a read.
        let current = try holders(environment: claim.environment, originalTransactionId: claim.originalTransactionId)
        if current.contains(claim.accountId) { return .held }
        return try pool.withConnection { connection throws(LedgerError) in
            try Self.inTransaction(connection) { () throws(LedgerError) in
                // Claims to one purchase from every gateway are settled one after another.
                try connection.execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                    ["binding|\(claim.environment)|\(claim.originalTransactionId)"])
                let holders = try connection.execute(
                    AccountBindingTable.holders { "$\($0)" }, [claim.environment, claim.originalTransactionId]
                ).compactMap { $0.first ?? nil }
                let outcome = ClaimOutcome.settle(claim, holders: holders)
                for write in AccountBindingTable.writes(claim, outcome, placeholder: { "$\($0)" }) {
                    try connection.execute(write.sql, write.arguments)
                }
                return outcome
            }
        }
    }

    package func holdings(of accountId: String) throws(LedgerError) -> [StoredPurchase] {
        try texts(AccountBindingTable.holdings { "$\($0)" }, [accountId]).map(StoredPurchase.init(texts:))
    }

    package func holders(environment: String, originalTransactionId: String) throws(LedgerError) -> [String] {
        try texts(AccountBindingTable.holders { "$\($0)" }, [environment, originalTransactionId]).compactMap {
            $0.first ?? nil
        }
    }

    package func bindingEvents(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [BindingEvent]
    {
        try texts(AccountBindingTable.events { "$\($0)" }, [environment, originalTransactionId]).compactMap(
            AccountBindingTable.event)
    }
}
