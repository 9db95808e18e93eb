import CoreMetrics
import GatewayConcurrency

/// `storegate_apple_calls_total{host, outcome}` and `storegate_apple_call_duration_seconds{host}`, every
/// series made with the client, so recording a call looks nothing up in the registry.
struct AppleCallMetrics: Sendable {
    /// How one call ended: Apple's verdict class, or why there was none.
    enum Outcome: String, CaseIterable, Sendable {
        case verdict, rejected, malformed, misconfigured, timeout, unreadable
        case wrongHost = "wrong_host"
        case appleTrouble = "apple_trouble"
        case httpError = "http_error"
        case connectionError = "connection_error"
        case tooLarge = "too_large"
        case overCapacity = "over_capacity"

        init(_ action: ReceiptStatusPolicy.Action) {
            switch action {
            case .accept: self = .verdict
            case .reject: self = .rejected
            case .switchToSandbox, .switchToProduction: self = .wrongHost
            case .retryOnce: self = .malformed
            case .misconfigured: self = .misconfigured
            case .retryWithBackoff: self = .appleTrouble
            }
        }
    }

    private struct Series: Hashable {
        let endpoint: AppStoreClient.Endpoint
        let outcome: Outcome
    }

    private let calls: [Series: Counter]
    private let durations: [AppStoreClient.Endpoint: Timer]

    init(factory: any MetricsFactory) {
        let endpoints: [AppStoreClient.Endpoint] = [.production, .sandbox]
        var calls: [Series: Counter] = [:]
        for endpoint in endpoints {
            for outcome in Outcome.allCases {
                calls[Series(endpoint: endpoint, outcome: outcome)] = Counter(
                    label: "storegate_apple_calls_total",
                    dimensions: [("host", endpoint.rawValue), ("outcome", outcome.rawValue)], factory: factory)
            }
        }
        self.calls = calls
        durations = Dictionary(
            uniqueKeysWithValues: endpoints.map { endpoint in
                (
                    endpoint,
                    Timer(
                        label: "storegate_apple_call_duration_seconds", dimensions: [("host", endpoint.rawValue)],
                        factory: factory)
                )
            })
    }

    func count(_ endpoint: AppStoreClient.Endpoint, _ outcome: Outcome) {
        calls[Series(endpoint: endpoint, outcome: outcome)]?.increment()
    }

    func time(_ endpoint: AppStoreClient.Endpoint, since started: ContinuousClock.Instant) {
        durations[endpoint]?.recordNanoseconds(started.duration(to: .now).nanoseconds)
    }
}
