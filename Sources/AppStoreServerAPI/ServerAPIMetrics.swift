import CoreMetrics
import GatewayConcurrency

/// `storegate_apple_api_calls_total{endpoint, environment, outcome}` and
/// `storegate_apple_api_call_duration_seconds{endpoint}`: one count per HTTP call to the Server API (and
/// per call the budget refused), so an operator sees which endpoint Apple throttles or fails.
struct ServerAPIMetrics: Sendable {
    /// How one call ended.
    enum Outcome: String, Sendable {
        case ok
        case notFound = "not_found"
        case rejected
        case unauthorized
        case rateLimited = "rate_limited"
        case overBudget = "over_budget"
        case appleTrouble = "apple_trouble"
        case timeout
        case connectionError = "connection_error"
        case unreadable
        case tooLarge = "too_large"
    }

    let factory: any MetricsFactory

    func count(_ endpoint: ServerAPIEndpoint, _ environment: ServerAPIEnvironment, _ outcome: Outcome) {
        // Calls to Apple are rare next to requests, so the series is looked up per call, and only the
        // series that happen are exported.
        Counter(
            label: "storegate_apple_api_calls_total",
            dimensions: [
                ("endpoint", endpoint.rawValue), ("environment", environment.rawValue), ("outcome", outcome.rawValue),
            ], factory: factory
        ).increment()
    }

    func time(_ endpoint: ServerAPIEndpoint, since started: ContinuousClock.Instant) {
        Timer(
            label: "storegate_apple_api_call_duration_seconds", dimensions: [("endpoint", endpoint.rawValue)],
            factory: factory
        ).recordNanoseconds(started.duration(to: .now).nanoseconds)
    }
}
