import AppStoreServerAPI
import AppStoreSignedData
import AppStoreSim
import ConfigYAML
import Crypto
import Foundation
import GatewayCore
import GatewayServer
import Logging
import SignedTestData
import Testing

/// A client and the Server API stand-in on 127.0.0.1, keyed and signed as in production but with a fresh
/// in-app purchase key and Apple's test chain.
struct ServerAPITestbed {
    static let bundleId = "com.example"
    let apiKey = P256.Signing.PrivateKey()
    let serverAPI: SimServerAPI
    let server: SimHTTPServer
    let client: ServerAPIClient
    let metrics = GatewayMetrics()

    init(
        transactions: [SimAPITransaction] = [], pageSize: Int = 20, acceptSandbox: Bool = true,
        extraConfig: [String: String] = [:], simKeyId: String = "KEY123"
    ) throws {
        let check = try SimJWTCheck(
            issuerId: "issuer-1", keyId: simKeyId, bundleId: Self.bundleId,
            publicKeyPEM: apiKey.publicKey.pemRepresentation)
        serverAPI = SimServerAPI(
            check: check, signer: try Self.signer(), transactions: transactions, pageSize: pageSize)
        server = try SimHTTPServer(simulator: AppStoreSimulator(), serverAPI: serverAPI)
        let settings = try Self.settings(
            [
                "issuer_id": "issuer-1", "key_id": "KEY123", "production_url": "http://127.0.0.1:\(server.port)",
                "sandbox_url": "http://127.0.0.1:\(server.port)/sandbox", "timeout_ms": "2000",
            ].merging(extraConfig) { $1 }, key: apiKey.pemRepresentation, acceptSandbox: acceptSandbox)
        let verifier = try SignedDataVerifier(
            rootCertificates: [try SignedVectors.javaCertificate("testCA")], bundleIds: [Self.bundleId],
            environments: acceptSandbox ? ["Production", "Sandbox"] : ["Production"])
        client = ServerAPIClient(settings: settings, verifier: verifier, metricsFactory: metrics.factory)
    }

    static func signer() throws -> SimSigner {
        try SimSigner(
            keyPEM: try SignedVectors.text("apple-app-store-server-library-java/testLeaf.key"),
            certificatePEMs: try ["testLeaf", "testIntermediate", "testCA"].map {
                try SignedVectors.text("apple-app-store-server-library-java/\($0).pem")
            })
    }

    /// Settings read from an `apple.server_api` section with `fields`, the key given as text.
    static func settings(_ fields: [String: String], key: String, acceptSandbox: Bool = true) throws
        -> ServerAPISettings
    {
        let environment = ["STOREGATE_APPLE_SERVER_API_KEY": key]
        var yaml = "apple:\n  server_api:\n"
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { yaml += "    \(name): \"\(value)\"\n" }
        let reader = try ConfigReader(
            yaml: yaml, source: "test", baseDirectory: "/tmp", environment: environment
        )
        let settings = ServerAPISettings(reader.scoped("apple"), bundleIds: [bundleId], acceptSandbox: acceptSandbox)
        guard let settings, reader.problems.isEmpty else {
            throw TestbedError(reason: reader.problems.map(\.description).joined(separator: "; "))
        }
        return settings
    }

    /// Runs `body` with the client on a thread of its own and returns what it returned or threw. The client
    /// blocks its thread as it blocks a gateway worker; Swift Testing's few pool threads must not be blocked.
    func result<T: Sendable>(_ body: @escaping @Sendable (ServerAPIClient) throws -> T) async -> Result<T, any Error> {
        let client = client
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Result { try body(client) }) }.start()
        }
    }

    /// What `body` returns; the test fails with the failure it throws.
    func value<T: Sendable>(_ body: @escaping @Sendable (ServerAPIClient) throws -> T) async throws -> T {
        try await result(body).get()
    }

    /// The failure `body` throws; nil, and a recorded issue, when it succeeds.
    func failure<T: Sendable>(
        _ body: @escaping @Sendable (ServerAPIClient) throws -> T, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ServerAPIFailure? {
        guard case .failure(let error) = await result(body), let failure = error as? ServerAPIFailure else {
            Issue.record("expected a ServerAPIFailure", sourceLocation: sourceLocation)
            return nil
        }
        return failure
    }

    var exposition: String { String(decoding: metrics.exposition(stats: GatewayStats()), as: UTF8.self) }

    struct TestbedError: Error { let reason: String }
}

extension ContinuousClock.Instant {
    /// A minute from now: a deadline these tests never reach, even on a loaded machine (deadlines are not
    /// what they test).
    static var soon: Self { .now + .seconds(60) }
}

extension Logger {
    static let test = Logger(label: "test")
}
