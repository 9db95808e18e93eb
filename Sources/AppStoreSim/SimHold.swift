import NIOCore
import Synchronization

/// Answers kept back until a test lets them go: the store is "slow" for exactly as long as the test needs to see
/// what happens meanwhile, however loaded the machine is, where a fixed delay could end before the test looked.
public final class SimHold: Sendable {
    private struct State {
        var holding = false
        var kept: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// From now on, every answer waits for `release()`.
    public func hold() {
        state.withLock { $0.holding = true }
    }

    /// Sends the answers kept back, and answers at once again.
    public func release() {
        let kept = state.withLock { state in
            state.holding = false
            defer { state.kept = [] }
            return state.kept
        }
        for send in kept { send() }
    }

    /// Runs `send` on `eventLoop` now, or once released.
    func run(on eventLoop: any EventLoop, _ send: NIOLoopBound<() -> Void>) {
        let now = state.withLock { state in
            if state.holding { state.kept.append { eventLoop.execute { send.value() } } }
            return !state.holding
        }
        if now { send.value() }
    }
}
