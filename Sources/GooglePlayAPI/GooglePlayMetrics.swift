import CoreMetrics
import GatewayConcurrency

/// `storegate_google_api_calls_total{endpoint, outcome}` and `storegate_google_api_call_duration_seconds{endpoint}`:
/// one count per HTTP call to Google (the token endpoint is `token`; and per call the budget refused), so an
/// operator sees which endpoint Google throttles or fails.
struct GooglePlayMetrics: Sendable {
    /// How one call ended.
    enum Outcome: String, Sendable {
        case ok
        case notFound = "not_found"
        case gone
        case rejected
        case unauthorized
        case rateLimited = "rate_limited"
        case overBudget = "over_budget"
        case googleTrouble = "google_trouble"
        case unreachable

        init(status: Int) {
            self =
                switch status {
                case 200..<300: .ok
                case 401, 403: .unauthorized
                case 404: .notFound
                case 410: .gone
                case 429: .rateLimited
                case 500...: .googleTrouble
                default: .rejected
                }
        }
    }

    let factory: any MetricsFactory

    func count(_ endpoint: String, _ outcome: Outcome) {
        // Calls to Google are rare next to requests: the series is looked up per call, and only those that
        // happen are exported.
        Counter(
            label: "storegate_google_api_calls_total",
            dimensions: [("endpoint", endpoint), ("outcome", outcome.rawValue)],
            factory: factory
        ).increment()
    }

    func time(_ endpoint: String, since started: ContinuousClock.Instant) {
        Timer(
            label: "storegate_google_api_call_duration_seconds", dimensions: [("endpoint", endpoint)], factory: factory
        )
        .recordNanoseconds(started.duration(to: .now).nanoseconds)
    }
}
