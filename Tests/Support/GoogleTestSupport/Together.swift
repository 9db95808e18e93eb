import Foundation

/// Runs `work` on `count` threads of its own at once (a dispatch queue's concurrentPerform runs no more at a
/// time than there are cores), and returns when all are done. Each thread waits until all have started, so on a
/// loaded machine none begins its work after the others have finished theirs.
public enum Together {
    public static func run(_ count: Int, _ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let started = DispatchGroup()
            let go = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            for _ in 0..<count {
                started.enter()
                done.enter()
                Thread {
                    started.leave()
                    go.wait()
                    work()
                    done.leave()
                }.start()
            }
            started.notify(queue: .global()) {
                for _ in 0..<count { go.signal() }
            }
            done.notify(queue: .global()) { continuation.resume() }
        }
    }
}
