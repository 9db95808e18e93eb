import AppStoreSim
import Foundation
import GatewayCore
import GatewayServer
import Synchronization
import Testing

@testable import AppStoreReceipts

/// What the client tells the metrics route, and the cap on calls in flight.
@Suite struct AppStoreClientMetricsTests {
    static func exposition(_ metrics: GatewayMetrics) -> String {
        String(decoding: metrics.exposition(stats: GatewayStats()), as: UTF8.self)
    }

    @Test func everyCallIsCountedByHostAndOutcomeAndTimed() throws {
        // A sandbox receipt: production answers 21007 once its trouble is over.
        var troubled = SimReceipt(receipt: "troubled", environment: "Sandbox")
        troubled.steps = [SimStep(httpStatus: 503), SimStep(status: 21005), SimStep()]
        var huge = SimReceipt(receipt: "huge")
        huge.steps = [SimStep(body: "{\"status\":0,\"pad\":\"" + String(repeating: "x", count: 9 << 20) + "\"}")]
        let server = try SimHTTPServer(simulator: AppStoreSimulator(receipts: [troubled, huge]))
        defer { server.close() }
        let metrics = GatewayMetrics()
        let client = try AppStoreClientTests.client(server, "  max_attempts: 5", metrics: metrics)
        _ = try AppStoreClientTests.verify(client, "troubled")
        #expect(throws: UpstreamFailure.self) { try AppStoreClientTests.verify(client, "huge") }
        let text = Self.exposition(metrics)
        for line in [
            #"storegate_apple_calls_total{host="Production",outcome="wrong_host"} 1"#,
            #"storegate_apple_calls_total{host="Sandbox",outcome="http_error"} 1"#,
            #"storegate_apple_calls_total{host="Sandbox",outcome="apple_trouble"} 1"#,
            #"storegate_apple_calls_total{host="Sandbox",outcome="verdict"} 1"#,
            #"storegate_apple_calls_total{host="Production",outcome="too_large"} 5"#,
            #"storegate_apple_call_duration_seconds_count{host="Production"} 6"#,
            #"storegate_apple_call_duration_seconds_count{host="Sandbox"} 3"#,
        ] {
            #expect(text.contains(line), "\(line) missing from\n\(text)")
        }
    }

    @Test func callsBeyondTheCapWaitForATurn() throws {
        var slow = SimReceipt(receipt: "slow")
        slow.steps = [SimStep(delayMs: 400)]
        let server = try SimHTTPServer(simulator: AppStoreSimulator(receipts: [slow]))
        defer { server.close() }
        let client = try AppStoreClientTests.client(server, "  max_concurrent_calls: 1")
        let started = ContinuousClock.now
        let results = Mutex<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            let answered = (try? AppStoreClientTests.verify(client, "slow")) != nil
            results.withLock { $0.append(answered) }
        }
        #expect(results.withLock { $0 } == [true, true, true])
        // One at a time: three 400 ms calls cannot finish sooner than 1.2 s.
        #expect(started.duration(to: .now) >= .milliseconds(1200))
    }

    @Test func aCallThatGetsNoTurnBeforeItsDeadlineIsRefused() throws {
        let server = try SimHTTPServer(simulator: AppStoreSimulator(receipts: [SimReceipt(receipt: "slow")]))
        defer { server.close() }
        // Apple keeps its answer back until the second call has been refused, however long that takes.
        server.hold.hold()
        defer { server.hold.release() }
        let metrics = GatewayMetrics()
        let client = try AppStoreClientTests.client(
            server, "  max_concurrent_calls: 1\n  max_attempts: 1", metrics: metrics)
        let holder = Thread { _ = try? AppStoreClientTests.verify(client, "slow") }
        holder.start()
        // Until the holder has the only turn (its call is in flight).
        let deadline = ContinuousClock.now + .seconds(10)
        while !Self.exposition(metrics).contains("storegate_apple_calls_in_flight 1"), ContinuousClock.now < deadline {
            usleep(5_000)
        }
        #expect(Self.exposition(metrics).contains("storegate_apple_calls_in_flight 1"))
        #expect(throws: UpstreamFailure.self) {
            try AppStoreClientTests.verify(client, "slow", within: .milliseconds(600))
        }
        #expect(client.lastError?.contains("max_concurrent_calls") == true)
        let text = Self.exposition(metrics)
        #expect(text.contains("storegate_apple_calls_refused_total 1"), "\(text)")
        #expect(text.contains("storegate_apple_calls_in_flight 1.0"), "\(text)")
    }
}
