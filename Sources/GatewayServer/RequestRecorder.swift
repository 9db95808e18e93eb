import CoreMetrics
import GatewayCore

/// Counts and times the requests one thread answers: `storegate_requests_total{route, status}`,
/// `storegate_request_duration_seconds{route}` and, for error answers, `storegate_errors_total{code}`.
///
/// Keeps a tally per route for its thread alone (found by comparing mount paths, a handful at most), so
/// recording an answer is a few relaxed atomic adds: no lock, no hashing, no line another worker writes.
/// Not thread-safe by design: each worker thread owns one (``GatewayMetrics/makeRecorder()``).
package final class RequestRecorder: @unchecked Sendable {
    private let metrics: GatewayMetrics
    private var tallies: [RouteTally] = []
    private var errors: [ErrorCode: Counter] = [:]

    init(metrics: GatewayMetrics) {
        self.metrics = metrics
    }

    /// Records an answered request on `route` (a mount path, or "unrouted") that took `nanoseconds`, and its
    /// error code if it has one.
    package func record(route path: String, status: Int, nanoseconds: Int, error: ErrorCode? = nil) {
        tally(of: path).record(status: status, nanoseconds: nanoseconds)
        if let error { (errors[error] ?? makeErrorCounter(error)).increment() }
    }

    private func tally(of route: String) -> RouteTally {
        for tally in tallies where tally.route == route { return tally }
        let tally = metrics.makeTally(route: route)
        tallies.append(tally)
        return tally
    }

    private func makeErrorCounter(_ code: ErrorCode) -> Counter {
        let counter = GatewayMetrics.errorCounter(code, factory: metrics.factory)
        errors[code] = counter
        return counter
    }
}
