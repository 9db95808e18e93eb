import AppStoreSim
import ConfigYAML
import Foundation
import GatewayCore
import GatewayServer
import Logging
import Testing

@testable import AppStoreReceipts

/// The client against an in-process stand-in: the cases the end-to-end suite cannot reach cheaply.
@Suite struct AppStoreClientTests {
    static func client(_ server: SimHTTPServer, _ apple: String = "", metrics: GatewayMetrics = GatewayMetrics())
        throws -> AppStoreClient
    {
        let yaml = """
            apple:
              bundle_ids: [com.example.magazine]
              production_url: http://127.0.0.1:\(server.port)/verifyReceipt
              sandbox_url: http://127.0.0.1:\(server.port)/sandbox/verifyReceipt
            \(apple)
            """
        let reader = try ConfigReader(yaml: yaml, source: "test", baseDirectory: "/tmp", environment: [:])
        let settings = AppStoreSettings(reader.scoped("apple"))
        #expect(reader.problems.isEmpty)
        return AppStoreClient(settings: settings, metricsFactory: metrics.factory)
    }

    static func verify(_ client: AppStoreClient, _ name: String, within limit: Duration = .seconds(10))
        throws(UpstreamFailure) -> VerifyReceiptResponse
    {
        try client.verify(
            receiptData: Data(name.utf8).base64EncodedString(), excludeOldTransactions: false,
            deadline: .now + limit, logger: Logger(label: "test")
        ).0
    }

    @Test func endlessRedirectsBetweenHostsEndAsUnavailable() throws {
        var receipt = SimReceipt(receipt: "ping-pong", environment: "Production")
        receipt.steps = [SimStep(status: 21007)]
        let simulator = AppStoreSimulator(receipts: [receipt])
        let server = try SimHTTPServer(simulator: simulator)
        defer { server.close() }
        let client = try Self.client(server)
        #expect(throws: UpstreamFailure.self) { try Self.verify(client, "ping-pong") }
        #expect(simulator.calls["ping-pong"]?["Production"] ?? 0 <= 2)
        #expect(client.lastError?.contains("redirecting") == true)
    }

    @Test func anOversizedAnswerIsRefused() throws {
        var receipt = SimReceipt(receipt: "huge")
        receipt.steps = [SimStep(body: "{\"status\":0,\"pad\":\"" + String(repeating: "x", count: 9 << 20) + "\"}")]
        let server = try SimHTTPServer(simulator: AppStoreSimulator(receipts: [receipt]))
        defer { server.close() }
        let client = try Self.client(server, "  max_attempts: 1")
        #expect(throws: UpstreamFailure.self) { try Self.verify(client, "huge") }
    }

    @Test func theDeadlineBoundsEveryRetry() throws {
        var receipt = SimReceipt(receipt: "slow")
        receipt.steps = [SimStep(delayMs: 2000)]
        let server = try SimHTTPServer(simulator: AppStoreSimulator(receipts: [receipt]))
        defer { server.close() }
        let client = try Self.client(server, "  max_attempts: 10")
        let started = ContinuousClock.now
        #expect(throws: UpstreamFailure.self) { try Self.verify(client, "slow", within: .milliseconds(900)) }
        #expect(started.duration(to: .now) < .milliseconds(1500))
    }

    @Test(arguments: [
        ("production_url: http://buy.itunes.apple.com/verifyReceipt", "apple.production_url"),
        ("sandbox_url: ftp://127.0.0.1/x", "apple.sandbox_url"),
        ("bundle_ids: []", "apple.bundle_ids"),
        ("timeout_ms: 5", "apple.timeout_ms"),
    ])
    func unsafeOrWrongSettingsAreConfigProblems(line: String, key: String) throws {
        let yaml = "apple:\n" + (line.hasPrefix("bundle_ids") ? "" : "  bundle_ids: [a]\n") + "  \(line)\n"
        let reader = try ConfigReader(yaml: yaml, source: "test", baseDirectory: "/tmp", environment: [:])
        _ = AppStoreSettings(reader.scoped("apple"))
        #expect(reader.problems.map(\.keyPath).contains(key), "\(reader.problems)")
    }
}
