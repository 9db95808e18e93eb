import struct Foundation.Date
import struct Foundation.TimeInterval

/// The durable record of every App Store transaction the gateway has seen.
///
/// Contract every implementation keeps (and `LedgerConformance` in the tests checks):
/// - `record` is atomic: the whole batch is committed, or nothing is and it throws ``LedgerError``.
/// - It is idempotent: purchases are keyed by environment + ``PurchaseKey``, transactions by environment +
///   transaction id; recording the same batch again changes only `last_seen`/`last_source`.
/// - When `record` returns, the rows survive a crash of the process (kill -9).
/// - It is safe to call from many threads and processes at once; concurrent batches for the same purchases
///   still give one row per key and consistent recorded/known counts.
package protocol PurchaseLedger: EventOutbox {
    /// Records `batch` in one transaction and tells how many of its purchases were new.
    func record(_ batch: LedgerBatch) throws(LedgerError) -> RecordOutcome

    /// Records `notification` and its transactions in one transaction, unless its UUID was recorded before;
    /// returns false, changing nothing, for such a repeat.
    func recordNotification(_ notification: LedgerNotification) throws(LedgerError) -> Bool

    /// Records that a restore-sync named these purchases (a repeat of one request's is kept once).
    func recordRestores(_ restores: [Restore]) throws(LedgerError)

    /// The restores that named `originalTransactionId`'s purchase in `environment`, oldest first.
    func restores(environment: String, originalTransactionId: String) throws(LedgerError) -> [Restore]

    /// Records one content grant, durably, before the bytes go out, and in the same transaction makes the store
    /// follow-ups of its purchase that waited for a delivery due; returns whether it made any due.
    @discardableResult
    func recordDelivery(_ delivery: Delivery) throws(LedgerError) -> Bool

    /// The grants recorded for one original transaction, oldest first.
    func deliveries(environment: String, originalTransactionId: String) throws(LedgerError) -> [Delivery]

    /// Records a download the gateway failed to deliver after confirming its grant; a request's is kept once.
    func recordDeliveryFailure(_ failure: DeliveryFailure) throws(LedgerError)

    /// What the store said about how one subscription renews, by notification, oldest first.
    func renewals(environment: String, originalTransactionId: String) throws(LedgerError) -> [SubscriptionRenewal]

    /// The failed downloads of one original transaction, oldest first.
    func deliveryFailures(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [DeliveryFailure]

    /// The purchases recorded for one original transaction, newest period first.
    func purchases(environment: String, originalTransactionId: String) throws(LedgerError) -> [StoredPurchase]

    /// Claims up to `limit` of `store`'s pending consumption requests whose next attempt is due at `now` and that
    /// no live claim holds, for `lease`: no other caller (thread, process, gateway) gets them until the lease ends
    /// or they are settled or deferred.
    func claimConsumptionRequests(store: String, now: Date, lease: TimeInterval, limit: Int) throws(LedgerError)
        -> [ConsumptionRequest]

    /// Settles a pending request (`answered` or `unanswered`) with the body sent, if any, and the outcome;
    /// false, changing nothing, when it was settled before.
    func settleConsumptionRequest(
        _ notificationUUID: String, state: ConsumptionRequestState, answer: String?, outcome: String, at: Date
    ) throws(LedgerError) -> Bool

    /// Releases a claimed request for another attempt at `nextAttempt`, counting the attempt.
    func deferConsumptionRequest(_ notificationUUID: String, until nextAttempt: Date, outcome: String)
        throws(LedgerError)

    /// The consumption requests about one original transaction, oldest first.
    func consumptionRequests(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredConsumptionRequest]

    /// Claims up to `limit` of `store`'s pending follow-ups due at `now` that no live claim holds, for `lease`, as
    /// ``claimConsumptionRequests(store:now:lease:limit:)`` does.
    func claimFollowUps(store: String, now: Date, lease: TimeInterval, limit: Int) throws(LedgerError)
        -> [StoreFollowUp]

    /// Settles a pending follow-up (`done` or `abandoned`) with the outcome, counting the attempt; false, changing
    /// nothing, when it was settled before.
    func settleFollowUp(_ key: String, state: StoreFollowUpState, outcome: String, at: Date) throws(LedgerError)
        -> Bool

    /// Releases a claimed follow-up for another attempt at `nextAttempt`, counting the attempt.
    func deferFollowUp(_ key: String, until nextAttempt: Date, outcome: String) throws(LedgerError)

    /// The store follow-ups of one original transaction, oldest first.
    func followUps(environment: String, originalTransactionId: String) throws(LedgerError) -> [StoredFollowUp]

    /// `store`'s pending follow-ups by action: how many, and since when the oldest waits.
    func followUpBacklog(store: String) throws(LedgerError) -> [FollowUpBacklog]

    /// The purchases `store` knows by the handle whose digest is `handle` (recorded with their batches).
    func originals(ofHandle handle: String, store: String) throws(LedgerError) -> [LedgerOriginal]

    /// Records that the store says `original` is over, as a cancellation at `at`, of each of its purchases that
    /// was neither cancelled nor past its period then; returns how many it ended.
    func endPurchases(of original: LedgerOriginal, at: Date, source: LedgerSource) throws(LedgerError) -> Int

    /// The purchases transaction `transactionId` was recorded under (one per environment holding it); an
    /// original transaction id finds its own.
    func originals(of transactionId: String) throws(LedgerError) -> [LedgerOriginal]

    /// The transactions recorded for one original transaction, oldest purchase first.
    func transactions(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredTransaction]

    /// The notifications recorded about one original transaction, oldest first.
    func notifications(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredNotification]

    /// Records a completed notification backfill.
    func recordBackfill(_ run: BackfillRun) throws(LedgerError)

    /// The newest moment the ledger has the store's notifications up to: the last one received, or the end
    /// of the last backfill; nil for a ledger with neither.
    func notificationsRecordedUntil() throws(LedgerError) -> Date?

    /// Settles an account's claim to a purchase under its policy, atomically: of two claims at once (threads,
    /// processes, gateways), one is settled first and the other against its result. Records every change
    /// (and every refusal) as a ``BindingEvent``; a claim by an account that holds the purchase writes nothing.
    func claim(_ claim: AccountClaim) throws(LedgerError) -> ClaimOutcome

    /// The purchases `accountId` holds, in every environment.
    func holdings(of accountId: String) throws(LedgerError) -> [StoredPurchase]

    /// The accounts holding one original transaction, first bound first.
    func holders(environment: String, originalTransactionId: String) throws(LedgerError) -> [String]

    /// The binding changes of one original transaction, oldest first.
    func bindingEvents(environment: String, originalTransactionId: String) throws(LedgerError) -> [BindingEvent]

    /// Records a free grant with its purchase and transaction (and, for an account, its binding) in one
    /// transaction. A grant id recorded before is an error.
    func recordGrant(_ grant: FreeGrant) throws(LedgerError)

    /// Revokes grant `id` at `at` (its purchase is cancelled, so tokens and downloads stop at once) and returns
    /// it as it stands; nil for an unknown id. A grant revoked before stays as it was.
    func revokeGrant(_ id: String, by: String, reason: String, at: Date) throws(LedgerError) -> FreeGrant?

    /// The free grants `selection` names.
    func freeGrants(_ selection: FreeGrantSelection) throws(LedgerError) -> [FreeGrant]

    /// How many purchases and transactions are recorded (for operators and fault tests).
    func counts() throws(LedgerError) -> LedgerCounts

    /// Throws when the ledger cannot be read right now.
    func checkHealth() throws(LedgerError)
}

/// Row counts of a ledger.
package struct LedgerCounts: Sendable, Equatable {
    package let purchases: Int
    package let transactions: Int

    package init(purchases: Int, transactions: Int) {
        self.purchases = purchases
        self.transactions = transactions
    }
}

/// What one `record` call changed, counted in purchases as the ledger keys them.
package struct RecordOutcome: Sendable, Equatable {
    /// Purchases seen for the first time.
    package let recorded: Int
    /// Purchases already in the ledger.
    package let known: Int

    package init(recorded: Int, known: Int) {
        self.recorded = recorded
        self.known = known
    }
}
