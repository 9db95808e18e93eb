import GatewayHandlerAPI

/// `GET /v1/metrics`: every number the gateway keeps, in the Prometheus text format, for a scraper.
/// Like status, restrict it to local or monitoring addresses in nginx.
///
/// Requests by route and status with latency histograms per route, workers busy and total, saturation
/// events, errors by code (`ledger_unavailable` counts ledger failures), App Store calls by host and outcome
/// with their latency, calls waiting for and refused by `apple.max_concurrent_calls`, verification cache
/// lookups, downloads granted, resident memory and open file descriptors.
public struct MetricsHandler: GatewayHandler {
    public static let name = "metrics"

    private let metrics: MetricsText

    public init(_ setup: HandlerSetup, needs metrics: MetricsText) {
        self.metrics = metrics
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        GatewayResponse(
            status: 200,
            headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
            body: try metrics.exposition()
        )
    }
}
