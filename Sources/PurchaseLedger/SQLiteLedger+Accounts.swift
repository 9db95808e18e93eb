import Foundation
import GRDB

extension SQLiteLedger {
    package func claim(_ claim: AccountClaim) throws(LedgerError) -> ClaimOutcome {
        // The common case, an account coming back for what it holds, is settled by a read.
        let current = try holders(environment: claim.environment, originalTransactionId: claim.originalTransactionId)
        if current.contains(claim.accountId) { return .held }
        return try guarded {
            // An IMMEDIATE transaction: claims from every process are settled one after another.
            try pool.write { db in
                let holders = try String.fetchAll(
                    db, sql: AccountBindingTable.holders { "?\($0)" },
                    arguments: [claim.environment, claim.originalTransactionId])
                let outcome = ClaimOutcome.settle(claim, holders: holders)
                for write in AccountBindingTable.writes(claim, outcome, placeholder: { "?\($0)" }) {
                    try db.execute(sql: write.sql, arguments: StatementArguments(write.arguments))
                }
                return outcome
            }
        }
    }

    package func holdings(of accountId: String) throws(LedgerError) -> [StoredPurchase] {
        try texts(AccountBindingTable.holdings { "?\($0)" }, [accountId]).map(StoredPurchase.init(texts:))
    }

    package func holders(environment: String, originalTransactionId: String) throws(LedgerError) -> [String] {
        try texts(AccountBindingTable.holders { "?\($0)" }, [environment, originalTransactionId]).compactMap {
            $0.first ?? nil
        }
    }

    package func bindingEvents(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [BindingEvent]
    {
        try texts(AccountBindingTable.events { "?\($0)" }, [environment, originalTransactionId]).compactMap(
            AccountBindingTable.event)
    }
}
