import GatewayHandlerAPI
import Testing

@testable import GatewayServer

@Suite struct GatewayMetricsTests {
    @Test func requestsAreCountedAndTimedPerRouteAndStatus() {
        let metrics = GatewayMetrics()
        let recorder = metrics.makeRecorder()
        recorder.record(route: "/v1/catalog", status: 200, nanoseconds: 700_000)
        recorder.record(route: "/v1/catalog", status: 304, nanoseconds: 300_000)
        // Another thread's recorder adds to the same series.
        metrics.makeRecorder().record(route: "/v1/catalog", status: 200, nanoseconds: 30_000_000)
        recorder.record(route: "/v1/catalog", status: 504, nanoseconds: 30_000_000_000, error: .timeout)
        // A module's code, declared when the module is built, is there at 0 before its first error.
        metrics.declare([ErrorCode("ledger_unavailable")])
        metrics.workersSaturated()
        let text = String(decoding: metrics.exposition(stats: GatewayStats()), as: UTF8.self)
        for line in [
            #"storegate_requests_total{route="/v1/catalog",status="200"} 2"#,
            #"storegate_requests_total{route="/v1/catalog",status="304"} 1"#,
            #"storegate_requests_total{route="/v1/catalog",status="504"} 1"#,
            #"storegate_request_duration_seconds_bucket{route="/v1/catalog",le="0.001"} 2"#,
            #"storegate_request_duration_seconds_bucket{route="/v1/catalog",le="0.025"} 2"#,
            #"storegate_request_duration_seconds_bucket{route="/v1/catalog",le="0.05"} 3"#,
            #"storegate_request_duration_seconds_count{route="/v1/catalog"} 4"#,
            #"storegate_errors_total{code="timeout"} 1"#,
            "storegate_saturation_events_total 1",
            "storegate_workers 0.0",
            #"storegate_errors_total{code="ledger_unavailable"} 0"#,
        ] {
            #expect(text.contains(line + "\n"), "\(line) missing from\n\(text)")
        }
    }
}
