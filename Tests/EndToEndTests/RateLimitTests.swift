import Foundation
import Testing

extension EndToEnd {
    /// Per-client limits on a route (`rate_per_s`, `rate_burst`), through nginx.
    @Suite struct RateLimits {
        @Test func aClientOverItsRouteLimitGets429WithRetryAfterAndOtherRoutesDoNot() throws {
            var setup = GatewaySetup(
                binary: Binaries.testbed, routes: [("/v1/echo", "echo"), ("/v1/catalog", "catalog")])
            setup.routeOptions = ["/v1/echo": "rate_per_s: 1, rate_burst: 3"]
            let deployment = try Deployment(setup)
            defer { deployment.stop() }
            let statuses = try (0..<5).map { _ in try deployment.request("/v1/echo", method: "POST", body: [1]).status }
            #expect(statuses == [200, 200, 200, 429, 429])
            let limited = try deployment.request("/v1/echo", method: "POST", body: [1])
            #expect(limited.errorCode == "rate_limited")
            #expect(limited.header("Retry-After") == "1")
            #expect(try (0..<5).allSatisfy { _ in try deployment.request("/v1/catalog").status == 200 })
            // A token comes back after a second: admitted again then, and not before.
            let limitedAt = ContinuousClock.now
            var admittedAt: ContinuousClock.Instant?
            _ = ManagedProcess.poll(for: .seconds(5)) {
                let status = (try? deployment.request("/v1/echo", method: "POST", body: [1]))?.status
                if status == 200 { admittedAt = .now }
                return status == 200
            }
            let waited = try #require(admittedAt.map { limitedAt.duration(to: $0) })
            #expect(waited >= .milliseconds(300) && waited < .seconds(3), "\(waited)")
        }
    }
}
