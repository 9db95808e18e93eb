import CoreMetrics
import GatewayConcurrency
import GatewayCore
import Prometheus
import Synchronization

/// The process's metrics: a swift-metrics factory that every module records through, backed by the
/// Prometheus registry the `metrics` route renders. Lives as long as the process, across reloads.
///
/// Modules make their own metrics with `factory:` (``factory``), never through the global `MetricsSystem`,
/// so each gateway (and each test) has its own numbers. Requests are recorded through a ``RequestRecorder``
/// per thread, so serving a request takes no lock another worker holds.
package final class GatewayMetrics: Sendable {
    /// Pass as `factory:` to swift-metrics' `Counter`, `Timer`, `Gauge` and `Recorder`.
    package let factory: any MetricsFactory
    let registry: PrometheusCollectorRegistry
    /// The error codes whose series exist, made up front (at 0) so alerts see them before the first error.
    private let declared = Mutex<Set<ErrorCode>>([])
    private let saturations: CoreMetrics.Counter
    /// Every thread's route tallies (the request series), added up when scraped.
    private let tallies = Mutex<[RouteTally]>([])

    package init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = RouteTally.bounds.map { .nanoseconds($0) }
        self.factory = factory
        saturations = CoreMetrics.Counter(label: "storegate_saturation_events_total", factory: factory)
        declare(ErrorCode.core)
    }

    /// Makes the `storegate_errors_total` series of `codes` (at 0), so alerts see them before the first
    /// error. Modules declare the codes they answer when they are built; declaring twice changes nothing.
    package func declare(_ codes: [ErrorCode]) {
        declared.withLock { declared in
            for code in codes where declared.insert(code).inserted { _ = Self.errorCounter(code, factory: factory) }
        }
    }

    /// The `storegate_errors_total` series of `code` (the factory hands every caller the same one).
    static func errorCounter(_ code: ErrorCode, factory: any MetricsFactory) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: "storegate_errors_total", dimensions: [("code", code.name)], factory: factory)
    }

    /// A recorder for one thread's requests (a worker's, the watchdog's).
    package func makeRecorder() -> RequestRecorder { RequestRecorder(metrics: self) }

    /// A new tally of `route` for one thread, included in every scrape from now on.
    func makeTally(route: String) -> RouteTally {
        let tally = RouteTally(route: route)
        tallies.withLock { $0.append(tally) }
        return tally
    }

    /// Every route's tallies added up, by route.
    var requestTotals: [String: RouteTally.Snapshot] {
        tallies.withLock { tallies in
            tallies.reduce(into: [:]) { totals, tally in totals[tally.route, default: .init()].add(tally.snapshot) }
        }
    }

    /// Counts one time every worker was found busy, after a time some were not (PHP-FPM's max_children).
    package func workersSaturated() { saturations.increment() }
}
