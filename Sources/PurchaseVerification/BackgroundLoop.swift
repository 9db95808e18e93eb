import Foundation
import GatewayHandlerAPI

/// A store's work beside requests on a thread of its own: one pass at start, another when woken (something it
/// waits for was just recorded), and one every `interval` for what was deferred or claimed by a gateway that
/// died. `stop` ends it after the pass it is in.
package final class BackgroundLoop: BackgroundWork, @unchecked Sendable {
    private let name: String
    private let interval: TimeInterval
    /// Guards `woken` and `stopped`.
    private let condition = NSCondition()
    private var woken = false
    private var stopped = false

    package init(name: String, interval: TimeInterval) {
        self.name = name
        self.interval = interval
    }

    /// Starts the thread, which runs `pass` until stopped.
    package func start(_ pass: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in run(pass) }
        thread.name = name
        thread.start()
    }

    package func wake() { signal { $0.woken = true } }

    package func stop() { signal { $0.stopped = true } }

    private func signal(_ change: (BackgroundLoop) -> Void) {
        condition.lock()
        change(self)
        condition.broadcast()
        condition.unlock()
    }

    private func run(_ pass: @Sendable () -> Void) {
        while true {
            pass()
            condition.lock()
            if !woken, !stopped { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
            woken = false
            let done = stopped
            condition.unlock()
            if done { return }
        }
    }

    /// When work that failed is tried again: a minute after the first failure, doubling to an hour at most;
    /// later when the store said so (`Retry-After`).
    package static func pause(after attempts: Int, asked error: any Error) -> TimeInterval {
        let retryAfter = (error as? GatewayError)?.headers.first { $0.name == "Retry-After" }.flatMap {
            TimeInterval($0.value)
        }
        return pause(after: attempts, retryAfter: retryAfter)
    }

    /// As ``pause(after:asked:)``, with the store's `Retry-After` in seconds.
    package static func pause(after attempts: Int, retryAfter: TimeInterval?) -> TimeInterval {
        max(min(60 * pow(2, Double(min(attempts, 10) - 1)), 3_600), retryAfter ?? 0)
    }
}
