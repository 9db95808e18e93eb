import Foundation
import PurchaseLedger

/// The ledger's store follow-ups, for the store module that does them (Google Play's acknowledgements): claimed
/// by one gateway at a time, settled once, or deferred for another attempt. Nothing else of the ledger.
package struct StoreFollowUps: Sendable {
    private let ledger: any PurchaseLedger

    package init(ledger: any PurchaseLedger) { self.ledger = ledger }

    /// Claims up to `limit` of `store`'s follow-ups due now, for `lease` (no other gateway gets them meanwhile).
    package func claim(store: String, lease: TimeInterval, limit: Int) throws(LedgerError) -> [StoreFollowUp] {
        try ledger.claimFollowUps(store: store, now: Date(), lease: lease, limit: limit)
    }

    /// Settles `followUp`: the store took it (`done`), or refused it for good (`abandoned`).
    package func settle(_ followUp: StoreFollowUp, state: StoreFollowUpState, outcome: String) throws(LedgerError) {
        _ = try ledger.settleFollowUp(followUp.key, state: state, outcome: outcome, at: Date())
    }

    /// Releases `followUp` for another attempt at `nextAttempt`.
    package func deferFollowUp(_ followUp: StoreFollowUp, until nextAttempt: Date, outcome: String)
        throws(LedgerError)
    {
        try ledger.deferFollowUp(followUp.key, until: nextAttempt, outcome: outcome)
    }

    /// `store`'s pending follow-ups by action.
    package func backlog(store: String) throws(LedgerError) -> [FollowUpBacklog] {
        try ledger.followUpBacklog(store: store)
    }
}
