import Foundation
import GatewayConcurrency
import GatewayHandlerAPI
import Synchronization

/// A store's verdicts by key (a receipt key, a transaction id, a purchase token's digest): successes and
/// definitive rejections for a short TTL, within a byte budget (least recently used first out). Concurrent requests for the same key share
/// one upstream call: the first computes, the others wait for its verdict (or their own deadline, and then
/// get `unfinished`).
package final class VerificationCache<Key: Hashable & Sendable, Verdict: Sendable, Failure: Error>: Sendable {

    /// Shared by reference, so a hit can stamp its use under the read lock.
    private final class Entry: Sendable {
        let verdict: Verdict
        let expires: ContinuousClock.Instant
        let cost: Int
        let lastUse: Atomic<UInt64>
        /// The stamp of this entry's record in `State.order` (changed under the write lock only).
        let queuedAt: Atomic<UInt64>

        init(verdict: Verdict, expires: ContinuousClock.Instant, cost: Int, stamp: UInt64) {
            self.verdict = verdict
            self.expires = expires
            self.cost = cost
            lastUse = Atomic(stamp)
            queuedAt = Atomic(stamp)
        }
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var cost = 0
        var flights: [Key: Flight] = [:]
        /// Keys forgotten while their flight was in the air: what it brings back is from before, and not kept.
        var forgotten: Set<Key> = []
        /// Eviction order, oldest first from `head`: one record per entry, re-queued when the entry was
        /// used since (so eviction is amortised O(1), least recently used first); stale records are skipped.
        var order: [(key: Key, stamp: UInt64)] = []
        var head = 0
    }

    private let ttl: Duration
    private let maxBytes: Int
    private let unfinished: Failure
    /// Hits (almost every request for a receipt seen recently) only read.
    private let state = ReadWriteLock(State())
    /// The use clock: each hit and store takes the next stamp.
    private let uses = Atomic<UInt64>(0)

    package init(ttl: Duration, maxBytes: Int, unfinished: Failure) {
        self.ttl = ttl
        self.maxBytes = maxBytes
        self.unfinished = unfinished
    }

    /// The verdict for `key`: cached, shared with a call in flight, or computed by `compute`. `cost` is
    /// the memory a computed verdict will take. Failures that are not verdicts are never cached.
    package func verdict(
        for key: Key,
        deadline: ContinuousClock.Instant,
        compute: () throws(Failure) -> (Verdict, cost: Int)
    ) throws(Failure) -> (Verdict, cached: Bool) {
        if let verdict = state.read({ $0.entries[key].flatMap(fresh) }) { return (verdict, true) }
        let role: Role = state.write { state in
            if let entry = state.entries[key] {
                if let verdict = fresh(entry) { return .cached(verdict) }
                state.entries[key] = nil
                state.cost -= entry.cost
            }
            if let flight = state.flights[key] { return .follower(flight) }
            let flight = Flight()
            state.flights[key] = flight
            return .leader(flight)
        }
        switch role {
        case .cached(let verdict):
            return (verdict, true)
        case .follower(let flight):
            return (try (flight.wait(until: deadline) ?? .failure(unfinished)).get(), true)
        case .leader(let flight):
            let result: Result<(Verdict, cost: Int), Failure> = Result { () throws(Failure) in
                try compute()
            }
            state.write { state in
                state.flights[key] = nil
                let stale = state.forgotten.remove(key) != nil
                if case .success(let (verdict, cost)) = result, !stale {
                    store(verdict, cost: cost, for: key, in: &state)
                }
            }
            flight.finish(result.map(\.0))
            return (try result.get().0, false)
        }
    }

    /// Drops `key`'s verdict (the store said it changed): the next lookup computes it again, and a computation
    /// already under way is not kept (it may have read the store before the change).
    package func forget(_ key: Key) {
        state.write { state in
            if state.flights[key] != nil { state.forgotten.insert(key) }
            guard let entry = state.entries.removeValue(forKey: key) else { return }
            state.cost -= entry.cost
        }
    }

    /// What a lookup that missed the read lock does.
    private enum Role {
        case cached(Verdict)
        case follower(Flight)
        case leader(Flight)
    }

    /// `entry`'s verdict, stamped as used, unless it has expired.
    private func fresh(_ entry: Entry) -> Verdict? {
        guard entry.expires > ContinuousClock.now else { return nil }
        entry.lastUse.store(nextUse(), ordering: .relaxed)
        return entry.verdict
    }

    private func nextUse() -> UInt64 { uses.wrappingAdd(1, ordering: .relaxed).newValue }

    private func store(_ verdict: Verdict, cost: Int, for key: Key, in state: inout State) {
        guard ttl > .zero, cost <= maxBytes else { return }
        let stamp = nextUse()
        if let replaced = state.entries[key] { state.cost -= replaced.cost }
        state.entries[key] = Entry(verdict: verdict, expires: .now + ttl, cost: cost, stamp: stamp)
        state.order.append((key, stamp))
        state.cost += cost
        while state.cost > maxBytes, state.head < state.order.count {
            let (oldest, stamp) = state.order[state.head]
            state.head += 1
            guard let entry = state.entries[oldest], entry.queuedAt.load(ordering: .relaxed) == stamp else { continue }
            let lastUse = entry.lastUse.load(ordering: .relaxed)
            if lastUse > stamp {
                state.order.append((oldest, lastUse))
                entry.queuedAt.store(lastUse, ordering: .relaxed)
            } else {
                state.entries[oldest] = nil
                state.cost -= entry.cost
            }
        }
        if state.order.count - state.head > 2 * state.entries.count + 1024 {
            // Mostly stale records (expired or replaced entries): rebuild from the live entries.
            state.order = state.entries.map { ($0.key, $0.value.lastUse.load(ordering: .relaxed)) }
                .sorted { $0.stamp < $1.stamp }
            state.head = 0
            for (key, stamp) in state.order { state.entries[key]?.queuedAt.store(stamp, ordering: .relaxed) }
        } else if state.head > 1024, state.head * 2 > state.order.count {
            state.order.removeFirst(state.head)
            state.head = 0
        }
    }

    /// Records waiting in the eviction order (for tests: it stays proportional to the entries).
    package var queuedRecords: Int { state.read { $0.order.count - $0.head } }

    /// How many verdicts are held and the bytes they count for.
    package var usage: (entries: Int, bytes: Int) { state.read { ($0.entries.count, $0.cost) } }

    /// One upstream call that other requests for the same key wait on.
    private final class Flight: @unchecked Sendable {
        private let condition = NSCondition()
        private var result: Result<Verdict, Failure>?

        func finish(_ result: Result<Verdict, Failure>) {
            condition.lock()
            self.result = result
            condition.broadcast()
            condition.unlock()
        }

        /// The leader's result, or nil when `deadline` came first.
        func wait(until deadline: ContinuousClock.Instant) -> Result<Verdict, Failure>? {
            let wallDeadline = Date() + Double(ContinuousClock.now.duration(to: deadline).nanoseconds) / 1e9
            condition.lock()
            defer { condition.unlock() }
            while result == nil {
                if !condition.wait(until: wallDeadline) { break }
            }
            return result
        }
    }
}
