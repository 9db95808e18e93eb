import CoreMetrics
import Prometheus
import Synchronization

/// The process's metrics: a swift-metrics factory that every module records through, backed by the
/// Prometheus registry the `metrics` route renders. Lives as long as the process, across reloads.
///
/// Modules make their own metrics with `factory:` (``factory``), never through the global `MetricsSystem`,
/// so each gateway (and each test) has its own numbers.
public final class GatewayMetrics: Sendable {
    /// Pass as `factory:` to swift-metrics' `Counter`, `Timer`, `Gauge` and `Recorder`.
    public let factory: any MetricsFactory
    let registry: PrometheusCollectorRegistry
    private let routes = Mutex<[String: RouteMetrics]>([:])
    private let errors = Mutex<[String: CoreMetrics.Counter]>([:])
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
    }

    /// Counts an answered request on `route` (a mount path, or "unrouted") and times it.
    public func requestFinished(route: String, status: Int, duration: Duration) {
        let (counter, timer) = routes.withLock { all in
            var metrics =
                all[route]
                ?? RouteMetrics(
                    latency: CoreMetrics.Timer(
                        label: "storegate_request_duration_seconds", dimensions: [("route", route)], factory: factory))
            let counter =
                metrics.byStatus[status]
                ?? CoreMetrics.Counter(
                    label: "storegate_requests_total", dimensions: [("route", route), ("status", String(status))],
                    factory: factory)
            metrics.byStatus[status] = counter
            all[route] = metrics
            return (counter, metrics.latency)
        }
        counter.increment()
        timer.recordNanoseconds(duration.nanoseconds)
    }

    /// Counts an error answer by its API.md code (`ledger_unavailable`, `upstream_unavailable`, ...).
    public func errorAnswered(code: String) {
        let counter = errors.withLock { all in
            if let counter = all[code] { return counter }
            let counter = CoreMetrics.Counter(
                label: "storegate_errors_total", dimensions: [("code", code)], factory: factory)
            all[code] = counter
            return counter
        }
        counter.increment()
    }

    /// Counts one time every worker was found busy, after a time some were not (PHP-FPM's max_children).
    public func workersSaturated() { saturations.increment() }

    private struct RouteMetrics {
        let latency: CoreMetrics.Timer
        var byStatus: [Int: CoreMetrics.Counter] = [:]
    }
}
