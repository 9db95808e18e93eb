import AppStoreServerAPI
import AppStoreSignedData
import AppStoreSim
import ConfigYAML
import Crypto
import Foundation
import GatewayCore
import GatewayHandlerAPI
import GatewayServer
import Logging
@_spi(VerifierBackends) import PurchaseVerification
import SignedTestData
import Testing

@testable import AppStoreReceipts

/// A bare transaction id verified through the Server API stand-in: Apple's history is what is vouched for.
@Suite struct ServerAPIBackendTests {
    struct Bed {
        let serverAPI: SimServerAPI
        let server: SimHTTPServer
        let backend: ServerAPIBackend

        init(_ transactions: [SimAPITransaction]) throws {
            let key = P256.Signing.PrivateKey()
            let signer = try SimSigner(
                keyPEM: try SignedVectors.text("apple-app-store-server-library-java/testLeaf.key"),
                certificatePEMs: try ["testLeaf", "testIntermediate", "testCA"].map {
                    try SignedVectors.text("apple-app-store-server-library-java/\($0).pem")
                })
            serverAPI = SimServerAPI(
                check: try SimJWTCheck(
                    issuerId: "issuer", keyId: "KEY", bundleId: "com.example",
                    publicKeyPEM: key.publicKey.pemRepresentation),
                signer: signer, transactions: transactions)
            server = try SimHTTPServer(simulator: AppStoreSimulator(), serverAPI: serverAPI)
            let yaml = """
                apple:
                  bundle_ids: [com.example]
                  cache_ttl_s: 3600    # a loaded machine may take minutes between two asks; the cache must outlast them
                  server_api: {issuer_id: issuer, key_id: KEY, production_url: "http://127.0.0.1:\(server.port)",
                               sandbox_url: "http://127.0.0.1:\(server.port)/sandbox"}
                """
            let reader = try ConfigReader(
                yaml: yaml, source: "test", baseDirectory: "/tmp",
                environment: ["STOREGATE_APPLE_SERVER_API_KEY": key.pemRepresentation])
            let settings = try #require(
                ServerAPISettings(reader.scoped("apple"), bundleIds: ["com.example"], acceptSandbox: true))
            let metrics = GatewayMetrics()
            let verifier = try SignedDataVerifier(
                rootCertificates: [try SignedVectors.javaCertificate("testCA")], bundleIds: ["com.example"],
                environments: ["Production", "Sandbox"])
            backend = ServerAPIBackend(
                client: ServerAPIClient(settings: settings, verifier: verifier, metricsFactory: metrics.factory),
                settings: AppStoreSettings(reader.scoped("apple")), metricsFactory: metrics.factory)
        }

        /// The backend's verdict, reached from a thread of its own as a gateway worker reaches it.
        func verify(_ id: String) async -> Result<StorePurchases, any Error> {
            let backend = backend
            return await withCheckedContinuation { continuation in
                Thread {
                    let context = RequestContext(
                        requestId: "t", deadline: .now + .seconds(10), logger: Logger(label: "t"))
                    continuation.resume(
                        returning: Result {
                            try backend.verify(.store(AppStoreCredential.transactionId(id)), context: context)
                        })
                }.start()
            }
        }
    }

    @Test func anIdBringsTheCustomersWholeHistory() async throws {
        var issue = SimAPITransaction(transactionId: "4000001", productId: "com.example.issue.41")
        issue.purchase = "-3d"
        let bought = SimAPITransaction(transactionId: "4000002", productId: "com.example.issue.42")
        let stranger = SimAPITransaction(transactionId: "4000003", productId: "com.example.issue.43", customer: "other")
        let bed = try Bed([issue, bought, stranger])
        defer { bed.server.close() }
        let purchases = try await bed.verify("4000002").get()
        #expect(purchases.transactions.map(\.productId) == ["com.example.issue.41", "com.example.issue.42"])
        #expect(purchases.environment == "Production")
        #expect(purchases.bundleId == "com.example")
    }

    @Test func aSecondAskForAnIdIsAnsweredFromTheCache() async throws {
        let bed = try Bed([SimAPITransaction(transactionId: "4000001", productId: "com.example.issue.41")])
        defer { bed.server.close() }
        let first = try await bed.verify("4000001").get()
        let second = try await bed.verify("4000001").get()
        #expect(first.logMetadata["cached"] == "false")
        #expect(second.logMetadata["cached"] == "true")
        #expect(second.transactions.map(\.transactionId) == ["4000001"])
        // The history, and the customer's app transaction (the transaction carries none): once.
        #expect(bed.serverAPI.calls.count == 2)
        _ = try await bed.verify("4000001").get()
        #expect(bed.serverAPI.calls.count == 2)
    }

    @Test func appleFailuresBecomeTheGatewaysErrors() async throws {
        let bed = try Bed([SimAPITransaction(transactionId: "4000001", productId: "com.example.issue.41")])
        defer { bed.server.close() }
        let unknown = await bed.verify("9999999")
        guard case .failure(let notFound as GatewayError) = unknown else { Issue.record("\(unknown)"); return }
        #expect(notFound == .transactionNotFound)
        bed.serverAPI.play([SimAPIStep(httpStatus: 429, retryAfterS: 30)])
        let limited = await bed.verify("4000001")
        guard case .failure(let error as GatewayError) = limited else { Issue.record("\(limited)"); return }
        #expect(error.status == 503)
        #expect(error.headers.contains { $0.name == "Retry-After" && (Int($0.value) ?? 0) >= 29 })
        let malformed = await bed.verify("../x")
        guard case .failure(let refused as GatewayError) = malformed else { Issue.record("\(malformed)"); return }
        #expect(refused.status == 400)
    }
}
