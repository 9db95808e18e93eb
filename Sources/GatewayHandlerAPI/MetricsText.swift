/// Every number the gateway keeps, in the Prometheus text format. What the `metrics` route is handed.
public struct MetricsText: HandlerNeeds {
    private let rendering: @Sendable () -> [UInt8]

    package init(_ rendering: @escaping @Sendable () -> [UInt8]) { self.rendering = rendering }

    public static func provided(by source: CapabilitySource) throws -> Provision<MetricsText> {
        Provision(try source.provider.metricsText())
    }

    /// The exposition (format 0.0.4), with the gauges read at scrape time refreshed first.
    public func exposition() -> [UInt8] { rendering() }
}
