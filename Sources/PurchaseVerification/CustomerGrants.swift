import Foundation
import GatewayConcurrency
import GatewayHandlerAPI
import PurchaseLedger
import Synchronization

/// The free grants tied to customers' purchases (`storegate grant --customer`), held in memory so that a
/// verify or restore of one of those purchases brings the grant's entitlement without a ledger read per
/// request. Read again from the ledger at most every `interval` (a grant made or revoked by another process
/// shows within it), by the one request that finds it stale; a download is checked against the ledger itself,
/// so a revoked grant never delivers.
package final class CustomerGrants: Sendable {
    private let ledger: any PurchaseLedger
    private let interval: Duration
    /// Active grants by the purchase they are tied to, and when they were read.
    private let state = ReadWriteLock<(readAt: ContinuousClock.Instant?, byPurchase: [LedgerOriginal: [FreeGrant]])>(
        (nil, [:]))
    /// Set while one request reads the ledger, so the others go on with what is held.
    private let reading = Atomic<Bool>(false)

    package init(ledger: any PurchaseLedger, interval: Duration = .seconds(2)) {
        self.ledger = ledger
        self.interval = interval
    }

    /// The entitlements the active grants tied to the purchases of `transactions` in `environment` give.
    package func entitlements(environment: String, transactions: [PurchaseTransaction], catalog: Catalog, now: Date)
        -> [Entitlement]
    {
        refreshIfStale(now: now)
        let grants = state.read { state -> [FreeGrant] in
            guard !state.byPurchase.isEmpty else { return [] }
            var seen: Set<String> = []
            return transactions.flatMap { transaction -> [FreeGrant] in
                guard seen.insert(transaction.originalTransactionId).inserted else { return [] }
                return state.byPurchase[
                    LedgerOriginal(environment: environment, originalTransactionId: transaction.originalTransactionId)]
                    ?? []
            }
        }
        guard !grants.isEmpty else { return [] }
        let given = grants.map {
            PurchaseTransaction(
                transactionId: $0.id, originalTransactionId: $0.id, productId: $0.productId, webOrderLineItemId: nil,
                purchaseDate: $0.grantedAt, expiresDate: $0.expiresAt, cancellationDate: $0.revokedAt, quantity: 1)
        }
        return EntitlementRules.entitlements(fromGrants: given, catalog: catalog, now: now)
    }

    private func refreshIfStale(now: Date) {
        let instant = ContinuousClock.now
        let stale = state.read { state in state.readAt.map { $0.duration(to: instant) >= interval } ?? true }
        guard stale, reading.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            return
        }
        defer { reading.store(false, ordering: .releasing) }
        // A ledger that cannot be read now keeps what was held, and is asked again after the interval.
        let active = (try? ledger.freeGrants(.active(at: now)))
        state.write { state in
            state.readAt = instant
            guard let active else { return }
            var byPurchase: [LedgerOriginal: [FreeGrant]] = [:]
            for grant in active {
                guard let customer = grant.customerOriginalTransactionId else { continue }
                byPurchase[LedgerOriginal(environment: grant.environment, originalTransactionId: customer), default: []]
                    .append(grant)
            }
            state.byPurchase = byPurchase
        }
    }
}
