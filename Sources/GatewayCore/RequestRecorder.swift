import CoreMetrics

/// Counts and times the requests one thread answers: `storegate_requests_total{route, status}`,
/// `storegate_request_duration_seconds{route}` and, for error answers, `storegate_errors_total{code}`.
///
/// Keeps the metric handles it has used, so after the first request of a route and status it touches only
/// the shared Prometheus series themselves (an atomic add, a histogram update). Not thread-safe by design:
/// each worker thread owns one (``GatewayMetrics/makeRecorder()``); the factory gives every recorder the same
/// underlying series.
public final class RequestRecorder: @unchecked Sendable {
    private let factory: any MetricsFactory
    private var routes: [String: Route] = [:]
    private var errors: [ErrorCode: Counter] = [:]

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// Records an answered request on `route` (a mount path, or "unrouted"), and its error code if it has one.
    public func record(route path: String, status: Int, duration: Duration, error: ErrorCode? = nil) {
        let route = routes[path] ?? makeRoute(path)
        let counter = route.byStatus[status] ?? makeCounter(route, path, status)
        counter.increment()
        route.latency.recordNanoseconds(duration.nanoseconds)
        if let error { (errors[error] ?? makeErrorCounter(error)).increment() }
    }

    private func makeErrorCounter(_ code: ErrorCode) -> Counter {
        let counter = GatewayMetrics.errorCounter(code, factory: factory)
        errors[code] = counter
        return counter
    }

    private func makeRoute(_ path: String) -> Route {
        let route = Route(
            latency: Timer(label: "storegate_request_duration_seconds", dimensions: [("route", path)], factory: factory)
        )
        routes[path] = route
        return route
    }

    private func makeCounter(_ route: Route, _ path: String, _ status: Int) -> Counter {
        let counter = Counter(
            label: "storegate_requests_total", dimensions: [("route", path), ("status", String(status))],
            factory: factory)
        route.byStatus[status] = counter
        return counter
    }

    private final class Route {
        let latency: Timer
        var byStatus: [Int: Counter] = [:]

        init(latency: Timer) { self.latency = latency }
    }
}
