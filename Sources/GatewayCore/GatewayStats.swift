import Synchronization

/// Counters the transport keeps and the status route reports. Lives as long as the process, across reloads.
public final class GatewayStats: Sendable {
    private let total = Atomic<Int>(0)
    /// When the process started serving.
    public let startedAt: ContinuousClock.Instant
    private let busy = Atomic<Int>(0)
    private let byStatus = Mutex<[Int: Int]>([:])

    public init(startedAt: ContinuousClock.Instant = .now) {
        self.startedAt = startedAt
    }

    /// The worker threads the transport runs (requests it can serve at once).
    public var workersTotal: Int { total.load(ordering: .relaxed) }

    /// Set by the transport when it starts its workers.
    public func setWorkersTotal(_ count: Int) { total.store(count, ordering: .relaxed) }

    /// Workers serving a request right now.
    public var workersBusy: Int { busy.load(ordering: .relaxed) }

    /// Marks a worker busy; returns how many are busy now, counting this one.
    @discardableResult
    public func workerStarted() -> Int { busy.add(1, ordering: .relaxed).newValue }

    /// Marks a worker idle again.
    public func workerFinished() { busy.subtract(1, ordering: .relaxed) }

    /// Counts one answered request.
    public func record(status: Int) {
        byStatus.withLock { $0[status, default: 0] += 1 }
    }

    /// Answered requests by HTTP status.
    public var requestsByStatus: [Int: Int] { byStatus.withLock { $0 } }
}
