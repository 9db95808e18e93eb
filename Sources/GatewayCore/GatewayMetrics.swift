import CoreMetrics
import Prometheus
import Synchronization

/// The process's metrics: a swift-metrics factory that every module records through, backed by the
/// Prometheus registry the `metrics` route renders. Lives as long as the process, across reloads.
///
/// Modules make their own metrics with `factory:` (``factory``), never through the global `MetricsSystem`,
/// so each gateway (and each test) has its own numbers. Requests are recorded through a ``RequestRecorder``
/// per thread, so serving a request takes no lock another worker holds.
public final class GatewayMetrics: Sendable {
    /// Pass as `factory:` to swift-metrics' `Counter`, `Timer`, `Gauge` and `Recorder`.
    public let factory: any MetricsFactory
    let registry: PrometheusCollectorRegistry
    /// One counter per declared error code, made up front so an answer only looks its counter up.
    private let errors = Mutex<[ErrorCode: CoreMetrics.Counter]>([:])
    private let saturations: CoreMetrics.Counter

    /// Request latency buckets (seconds): from a cached catalog answer to a slow App Store verification.
    static let requestBuckets: [Duration] = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000]
        .map { Duration.microseconds(Int64($0 * 1000)) }

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.requestBuckets
        self.factory = factory
        saturations = CoreMetrics.Counter(label: "storegate_saturation_events_total", factory: factory)
        declare(ErrorCode.core)
    }

    /// Makes the `storegate_errors_total` series of `codes` (at 0), so alerts see them before the first
    /// error. Modules declare the codes they answer when they are built; declaring twice changes nothing.
    public func declare(_ codes: [ErrorCode]) {
        errors.withLock { errors in
            for code in codes where errors[code] == nil { errors[code] = makeErrorCounter(code) }
        }
    }

    private func makeErrorCounter(_ code: ErrorCode) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: "storegate_errors_total", dimensions: [("code", code.name)], factory: factory)
    }

    /// A recorder for one thread's requests (a worker's, the watchdog's).
    public func makeRecorder() -> RequestRecorder { RequestRecorder(factory: factory) }

    /// Counts an error answer by its code (`ledger_unavailable`, `upstream_unavailable`, ...).
    public func errorAnswered(_ code: ErrorCode) {
        let counter = errors.withLock { errors in
            if let counter = errors[code] { return counter }
            let made = makeErrorCounter(code)
            errors[code] = made
            return made
        }
        counter.increment()
    }

    /// Counts one time every worker was found busy, after a time some were not (PHP-FPM's max_children).
    public func workersSaturated() { saturations.increment() }
}
