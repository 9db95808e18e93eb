import struct Foundation.Date
import struct Foundation.TimeInterval

/// The ledger's outbox: the events its committed changes wrote (each in the change's own transaction, by the
/// database's triggers), and their deliveries to the configured endpoints.
///
/// Contract (`EventConformanceTests`): a change writes its events exactly when it is committed; each event gets
/// one delivery per endpoint configured then that takes it; of an endpoint's deliveries for one purchase, only the
/// oldest pending ones can be claimed, in order; a claim holds for its lease against every other caller; `ledger copy`
/// copies events and deliveries as they are, writing no event of its own.
package protocol EventOutbox: Sendable {
    /// Makes `endpoints` the ones that take events written from now on; others take none until named again.
    func configureEventEndpoints(_ endpoints: [EventSubscription], at: Date) throws(LedgerError)

    /// Claims up to `limit` of endpoint `endpoint`'s oldest due deliveries no live claim holds, for `lease`, in
    /// order: of one purchase's pending deliveries, only its oldest ones, and only when none before them is held by
    /// another claim or deferred. Of two callers (threads, processes, gateways), one claims each.
    func claimEventDeliveries(endpoint: String, now: Date, lease: TimeInterval, limit: Int) throws(LedgerError)
        -> [EventDeliveryClaim]

    /// Gives back a claim not attempted (its purchase's earlier delivery failed): due again at once for anyone.
    func releaseEventDelivery(_ claim: EventDeliveryClaim) throws(LedgerError)

    /// Ends a pending delivery (`delivered` or `expired`) with `outcome`, counting the attempt.
    func settleEventDelivery(_ claim: EventDeliveryClaim, as end: EventDeliveryEnd, outcome: String, at: Date)
        throws(LedgerError)

    /// Releases a claimed delivery for another attempt at `nextAttempt`, counting the attempt.
    func deferEventDelivery(_ claim: EventDeliveryClaim, until nextAttempt: Date, outcome: String)
        throws(LedgerError)

    /// Each endpoint's pending and given-up deliveries.
    func eventBacklog() throws(LedgerError) -> [EventBacklog]

    /// Up to `limit` events written at or after `since`, after sequence number `after`, in order.
    func events(since: Date, after: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent]

    /// The events of one original transaction, in order.
    func events(environment: String, originalTransactionId: String) throws(LedgerError) -> [LedgerEvent]

    /// The deliveries of one original transaction's events, in order.
    func eventDeliveries(environment: String, originalTransactionId: String) throws(LedgerError)
        -> [StoredEventDelivery]

    /// Sends again, from `at`, every event written at or after `since` to `endpoint` (every configured endpoint
    /// when nil), including those written before it took them; returns how many deliveries it made pending.
    func replayEvents(since: Date, endpoint: String?, at: Date) throws(LedgerError) -> Int
}
