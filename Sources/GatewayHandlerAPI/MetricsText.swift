/// Every number the gateway keeps, in the Prometheus text format. What the `metrics` route is handed.
public struct MetricsText: HandedOutNeeds {
    private var rendering: RouteBound<@Sendable () -> [UInt8]>

    package init(_ rendering: @escaping @Sendable () -> [UInt8]) {
        self.rendering = RouteBound(rendering)
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<MetricsText> {
        var metrics = try source.provider.metricsText()
        metrics.rendering = metrics.rendering.bound(to: source)
        return Provision(metrics)
    }

    /// The exposition (format 0.0.4), with the gauges read at scrape time refreshed first, while the route it
    /// was handed to answers.
    public func exposition() throws -> [UInt8] {
        try rendering.serving()()
    }
}
