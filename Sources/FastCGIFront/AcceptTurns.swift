#if canImport(Glibc)
    import Glibc
#endif

/// Which idle worker accepts the next new connection: the one that went idle last.
///
/// Linux wakes the threads blocked in `accept` on one socket first in, first out, so with every worker waiting
/// there each took its turn: under 32 connections (nginx keeping 16) all 128 workers of the deploy/ config ran,
/// and each kept its own allocator pages, stack and read connection's page cache warm, so memory grew with the
/// worker count, not with the load (docs/OPERATIONS.md, Memory). Here one worker at a time waits for a
/// connection and, once one arrives, hands the turn to the worker that went idle most recently: the workers that
/// run are about as many as the requests in flight, and the others stay cold until a burst needs them. A worker
/// whose connection the web server keeps reads its next request without a turn.
final class AcceptTurns: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// One per worker, so a turn wakes exactly the worker it is handed to.
    private let conditions: UnsafeMutablePointer<pthread_cond_t>
    private let workers: Int
    // Guarded by `mutex`.
    private var granted: [Bool]
    /// The workers waiting for a turn, the one that went idle last at the end.
    private var waiting: [Int] = []
    private var held = false
    private var stopped = false

    init(workers: Int) {
        self.workers = workers
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        conditions = .allocate(capacity: max(workers, 1))
        for worker in 0..<workers { pthread_cond_init(conditions + worker, nil) }
        granted = Array(repeating: false, count: workers)
        waiting.reserveCapacity(workers)
    }

    deinit {
        for worker in 0..<workers { pthread_cond_destroy(conditions + worker) }
        conditions.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Waits until `worker` holds the turn to wait for a connection; false once the server stops. A worker that
    /// got the turn passes it on (``pass()``) as soon as a connection arrives.
    func take(_ worker: Int) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !stopped else { return false }
        guard held else {
            held = true
            return true
        }
        waiting.append(worker)
        // A wake signal at shutdown, or a spurious wake, returns early: the loop waits again.
        while !granted[worker], !stopped { pthread_cond_wait(conditions + worker, mutex) }
        guard granted[worker] else {
            waiting.removeAll { $0 == worker }
            return false
        }
        granted[worker] = false
        return true
    }

    /// Hands the turn to the worker that went idle last, or leaves it free for the next to ask.
    func pass() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard let next = waiting.popLast() else {
            held = false
            return
        }
        granted[next] = true
        pthread_cond_signal(conditions + next)
    }

    /// Wakes every waiting worker, with no turn: the server is stopping.
    func stop() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        stopped = true
        for worker in 0..<workers { pthread_cond_signal(conditions + worker) }
    }
}
