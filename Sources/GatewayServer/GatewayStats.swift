import GatewayCore
import Synchronization

/// Counters the transport keeps and the status route reports. Lives as long as the process, across reloads.
///
/// Each worker counts into its own ``WorkerCounters``, so serving a request touches no memory another core
/// is writing; reading the totals adds them up.
package final class GatewayStats: Sendable {
    /// When the process started serving.
    package let startedAt: ContinuousClock.Instant
    private let workers = Mutex<[WorkerCounters]>([])

    package init(startedAt: ContinuousClock.Instant = .now) {
        self.startedAt = startedAt
    }

    /// Counters for one more worker thread, included in every total from now on.
    package func makeWorkerCounters() -> WorkerCounters {
        let counters = WorkerCounters()
        workers.withLock { $0.append(counters) }
        return counters
    }

    /// The worker threads the transport runs (requests it can serve at once).
    package var workersTotal: Int { workers.withLock { $0.count } }

    /// Workers serving a request right now.
    package var workersBusy: Int { workers.withLock { $0.reduce(0) { $0 + ($1.isBusy ? 1 : 0) } } }

    /// Answered requests by HTTP status.
    package var requestsByStatus: [Int: Int] {
        workers.withLock { all in
            all.reduce(into: [:]) { totals, worker in totals.merge(worker.byStatus, uniquingKeysWith: +) }
        }
    }
}

/// One worker's counters. Written by that worker (and by the watchdog when it answers for it, while the
/// worker waits on its handler), read by the status route: atomics, so counting takes no lock.
package final class WorkerCounters: Sendable {
    private let busy = Atomic<Bool>(false)
    private let statuses = StatusCounts()
    /// Keeps the next worker's counters off this one's cache line.
    private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    /// Marks the worker busy or idle.
    package func setBusy(_ busy: Bool) { self.busy.store(busy, ordering: .relaxed) }

    /// Counts one answered request.
    package func record(status: Int) { statuses.add(status) }

    var isBusy: Bool { busy.load(ordering: .relaxed) }
    var byStatus: [Int: Int] { statuses.all }
}
