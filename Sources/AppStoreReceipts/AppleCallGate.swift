import CoreMetrics
import Dispatch
import GatewayConcurrency
import Synchronization

/// Bounds the calls to Apple in flight at once (`apple.max_concurrent_calls`), so a slow App Store cannot
/// make every worker open another connection to it, and counts what it does for the metrics route.
final class AppleCallGate: Sendable {
    private let turns: DispatchSemaphore
    private let inFlight = Atomic<Int>(0)
    private let inFlightGauge: Gauge
    private let refused: Counter

    init(limit: Int, factory: any MetricsFactory) {
        turns = DispatchSemaphore(value: limit)
        inFlightGauge = Gauge(label: "storegate_apple_calls_in_flight", factory: factory)
        refused = Counter(label: "storegate_apple_calls_refused_total", factory: factory)
    }

    /// Runs `call` once a turn is free; nil when none became free before `deadline`.
    func withTurn<Result>(before deadline: ContinuousClock.Instant, _ call: () -> Result) -> Result? {
        let wait = max(ContinuousClock.now.duration(to: deadline), .zero)
        guard turns.wait(timeout: .now() + .nanoseconds(Int(wait.nanoseconds))) == .success else {
            refused.increment()
            return nil
        }
        inFlightGauge.record(inFlight.add(1, ordering: .relaxed).newValue)
        defer {
            inFlightGauge.record(inFlight.subtract(1, ordering: .relaxed).newValue)
            turns.signal()
        }
        return call()
    }
}
