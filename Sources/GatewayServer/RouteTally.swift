import GatewayCore
import Synchronization

/// One thread's answers on one route: counts by status and the latency histogram behind
/// `storegate_requests_total` and `storegate_request_duration_seconds`. Its thread adds to relaxed atomics
/// (no lock, no hashing, no line shared with another worker's writes); the metrics route adds up every
/// thread's tallies when it is scraped.
final class RouteTally: Sendable {
    /// The mount path (or `unrouted`) the tally counts.
    let route: String
    let statuses = StatusCounts()
    /// Answers per latency bucket, not cumulative: one per bound of ``bounds``, then one for +Inf.
    private let buckets: InlineArray<15, Atomic<Int>> = InlineArray { _ in Atomic(0) }
    private let totalNanoseconds = Atomic<Int>(0)

    /// The upper bounds of the latency buckets, in nanoseconds: from a cached catalog answer (1 ms) to a slow
    /// App Store verification (30 s).
    static let bounds: [Int] = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000]
        .map { Int($0 * 1_000_000) }

    init(route: String) {
        self.route = route
    }

    /// Counts one answer with `status` that took `nanoseconds`.
    func record(status: Int, nanoseconds: Int) {
        statuses.add(status)
        var bucket = 0
        while bucket < Self.bounds.count, nanoseconds > Self.bounds[bucket] { bucket += 1 }
        buckets[bucket].wrappingAdd(1, ordering: .relaxed)
        totalNanoseconds.wrappingAdd(nanoseconds, ordering: .relaxed)
    }

    /// What the tally holds now, to add to other threads' tallies of the same route.
    var snapshot: Snapshot {
        Snapshot(
            statuses: statuses.all,
            buckets: (0..<15).map { buckets[$0].load(ordering: .relaxed) },
            totalNanoseconds: totalNanoseconds.load(ordering: .relaxed))
    }

    /// Counts of one or more tallies of a route, added up.
    struct Snapshot {
        var statuses: [Int: Int] = [:]
        var buckets = [Int](repeating: 0, count: 15)
        var totalNanoseconds = 0

        mutating func add(_ other: Snapshot) {
            statuses.merge(other.statuses, uniquingKeysWith: +)
            for index in buckets.indices { buckets[index] += other.buckets[index] }
            totalNanoseconds += other.totalNanoseconds
        }
    }
}
