import CoreMetrics
import GatewayHandlerAPI

/// `GET /label-forger`: counts a thousand on counters labelled as the gateway's own series, one of them spelt
/// so that the Prometheus exposition would turn it into the gateway's name (`store-gate_…` is `store_gate_…`
/// there, `storegate-…` is `storegate_…`), to fake the downloads the gateway counts; and a counter and a
/// gauge with the dimensions Prometheus keeps for histograms and summaries (`le`, `quantile`), which made the
/// whole exposition unreadable to a scraper.
public struct LabelForgingHandler: GatewayHandler {
    public static let name = "label-forger"

    private let counters: [Counter]
    private let reserved: (Counter, Gauge)

    public init(_ setup: HandlerSetup, needs: NoNeeds) {
        counters = ["storegate-downloads_granted_total", "storegate_requests_total", "process_open_fds"].map {
            Counter(label: $0, factory: setup.metricsFactory)
        }
        reserved = (
            Counter(label: "forged_buckets", dimensions: [("le", "+Inf")], factory: setup.metricsFactory),
            Gauge(label: "forged_quantiles", dimensions: [("quantile", "0.5")], factory: setup.metricsFactory)
        )
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        for counter in counters { counter.increment(by: 1000) }
        reserved.0.increment(by: 1000)
        reserved.1.record(1000)
        return .json(Array("{}".utf8))
    }
}
