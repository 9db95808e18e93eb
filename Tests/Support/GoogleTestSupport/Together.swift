import Foundation
import Synchronization

/// Runs `work` on `count` threads of its own at once (a dispatch queue's concurrentPerform runs no more at a
/// time than there are cores), and returns when all are done. Each thread waits until all have started, so on a
/// loaded machine none begins its work after the others have finished theirs. The threads count themselves in
/// and out: a dispatch queue that notified them waited for a core of its own pool, which other tests' blocking
/// work held for a minute at a time.
public enum Together {
    public static func run(_ count: Int, _ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            start(count, work) { continuation.resume() }
        }
    }

    /// Starts the threads and returns at once, without a suspension (a test that must watch them while they
    /// work need not wait for a thread of the concurrency pool to come back to it); `finished` is signalled once
    /// all are done.
    public static func start(_ count: Int, _ work: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let finished = DispatchSemaphore(value: 0)
        start(count, work) { finished.signal() }
        return finished
    }

    private static func start(
        _ count: Int, _ work: @escaping @Sendable () -> Void, whenDone: @escaping @Sendable () -> Void
    ) {
        let tally = Tally()
        let go = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            Thread {
                if tally.started() == count { for _ in 0..<count { go.signal() } }
                go.wait()
                work()
                if tally.finished() == count { whenDone() }
            }.start()
        }
    }

    /// How many threads have started and finished.
    private final class Tally: Sendable {
        private let counts = Mutex((started: 0, finished: 0))

        func started() -> Int {
            counts.withLock { counts in
                counts.started += 1
                return counts.started
            }
        }

        func finished() -> Int {
            counts.withLock { counts in
                counts.finished += 1
                return counts.finished
            }
        }
    }
}
