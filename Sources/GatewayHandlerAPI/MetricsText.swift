/// Every number the gateway keeps, in the Prometheus text format. What the `metrics` route is handed.
public struct MetricsText: HandlerNeeds {
    private let rendering: @Sendable () -> [UInt8]
    private let use: CapabilityUse?

    package init(_ rendering: @escaping @Sendable () -> [UInt8]) {
        self.rendering = rendering
        use = nil
    }

    private init(_ metrics: MetricsText, use: CapabilityUse) {
        rendering = metrics.rendering
        self.use = use
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<MetricsText> {
        Provision(MetricsText(try source.provider.metricsText(), use: source.use))
    }

    /// The exposition (format 0.0.4), with the gauges read at scrape time refreshed first, while the route it
    /// was handed to answers.
    public func exposition() throws -> [UInt8] {
        guard let use else { throw GatewayError.internalError }
        try use.check()
        return rendering()
    }
}
