import Foundation

/// Runs `work` on `count` threads of its own at once (a dispatch queue's concurrentPerform runs no more at a
/// time than there are cores), and returns when all are done.
public enum Together {
    public static func run(_ count: Int, _ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = DispatchGroup()
            for _ in 0..<count {
                done.enter()
                Thread {
                    work()
                    done.leave()
                }.start()
            }
            done.notify(queue: .global()) { continuation.resume() }
        }
    }
}
