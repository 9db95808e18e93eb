import Dispatch
import Foundation
import GatewayConcurrency
import Testing

struct AsyncBridgeTests {
    /// A worker waiting on async work gets its answer while every thread of Swift's cooperative pool is blocked
    /// (synchronous tests waiting on processes did that, and the App Store Server API client's verification waited
    /// a minute, past its deadline, on a loaded machine).
    @Test func theBridgeFinishesWhileEverySwiftConcurrencyThreadIsBlocked() {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // This test's own thread is one of the pool's; the others are held here.
        for _ in 1..<max(width, 1) {
            Task.detached {
                started.signal()
                release.wait()
            }
        }
        for _ in 1..<max(width, 1) { _ = started.wait(timeout: .now() + 30) }
        let finished = DispatchSemaphore(value: 0)
        Thread {
            #expect(AsyncBridge.wait { () async -> Int in 42 } == 42)
            finished.signal()
        }.start()
        let answered = finished.wait(timeout: .now() + 10)
        for _ in 1..<max(width, 1) { release.signal() }
        #expect(answered == .success)
        if answered != .success { finished.wait() }
    }
}
