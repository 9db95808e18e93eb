import Crypto
import Foundation
import GoogleTestSupport
import PurchaseLedger
import Testing

/// A deployment of the test gateway with verify, status and an App Store content route, against its own
/// App Store stand-in, with a ledger the test can read.
final class VerifyDeployment: @unchecked Sendable {
    let appStore: AppStoreStandIn
    let deployment: Deployment
    /// `ledger.url`, when not the default SQLite file in the deployment's folder.
    let ledgerURL: String?

    static let tokenSecret = "test-token-secret-1b2c3d4e5f"

    /// `apple` keys that trust the test chain's root for signed data (JWS minted by the tests, notifications)
    /// in Production and Sandbox, for the app the stand-in's notifications name.
    static var trustingTestChain: [String: String] {
        [
            "environments": "[Production, Sandbox]", "app_apple_id": String(SampleContent.appAppleId),
            "root_certificates": "[\"\(EndToEnd.SignedTransactions.testRoot.path)\"]",
        ]
    }

    /// The audience and service account of the Pub/Sub push subscription the test gateways take pushes from.
    static let pushAudience = "https://storegate.test/v1/notifications/google"
    static let pushEmail = "play-push@sim-project.iam.gserviceaccount.com"

    /// A Pub/Sub push of the developer notification `notification` (`packageName` and `eventTimeMillis` added,
    /// Google's time of sending it) as message `messageId`, signed by the stand-in (or forged so,
    /// `SimGooglePush.Forgery`), sent through nginx to `/v1/notifications/google`.
    func pushGoogle(
        _ notification: [String: Any], messageId: String, forgery: String? = nil,
        audience: String = VerifyDeployment.pushAudience, email: String = VerifyDeployment.pushEmail,
        sentAt: Date = Date()
    ) throws -> HTTPResponse {
        var developer = notification
        developer["version"] = "1.0"
        developer["packageName"] = developer["packageName"] ?? SampleContent.googlePackage
        developer["eventTimeMillis"] = String(Int(sentAt.timeIntervalSince1970 * 1000))
        let push = try appStore.googlePush(
            notification: String(decoding: try JSONSerialization.data(withJSONObject: developer), as: UTF8.self),
            messageId: messageId, audience: audience, email: email, forgery: forgery)
        return try deployment.request(
            "/v1/notifications/google", method: "POST",
            headers: push.authorization.map { [("Authorization", $0)] } ?? [], body: Array(push.body.utf8))
    }

    init(
        apple: [String: String] = [:],
        server: [String: String] = [:],
        simSecret: String? = nil,
        environment: [String: String] = [:],
        delivery: String = "x-accel",
        catalog: String? = nil,
        tokens: String = "tokens:\n  secret: \(VerifyDeployment.tokenSecret)\n",
        gateways: Int = 1,
        ledgerURL: String? = nil,
        fileSizeLimit: Int? = nil,
        serverAPIKey: P256.Signing.PrivateKey? = nil,
        serverAPIBundleId: String = SampleContent.bundleId,
        serverAPIExtra: String = "",
        extra: String = "",
        nginxAccounts: [String: String]? = nil,
        moreRoutes: [(String, String)] = [],
        google: [String: String]? = nil,
        googleTokenLifetime: Int? = nil,
        binary: URL = Binaries.testbed
    ) throws {
        self.ledgerURL = ledgerURL
        let googleAccount = try google.map { _ in try GoogleTestAccount() }
        appStore = try AppStoreStandIn(
            sharedSecret: simSecret, serverAPIPublicKey: serverAPIKey?.publicKey.pemRepresentation,
            apiBundleId: serverAPIBundleId, googlePublicKey: googleAccount?.publicKeyPEM,
            googleTokenLifetime: googleTokenLifetime)
        var apple = apple
        var environment = environment
        var extra = extra
        if let google, let googleAccount {
            // The google section, pointing at the stand-in; the key in the environment, as an operator would.
            let base = "http://127.0.0.1:\(appStore.port)"
            let keys = [
                "package_names": "[\(SampleContent.googlePackage)]", "api_url": "\"\(base)\"",
                "token_url": "\"\(base)/token\"", "timeout_ms": "2000",
                // Pub/Sub's pushes, signed by the stand-in under the keys it publishes.
                "notifications": "{audience: \"\(Self.pushAudience)\", email: \"\(Self.pushEmail)\", "
                    + "jwks_url: \"\(base)/_sim/google/push-keys\"}",
            ].merging(google) { _, chosen in chosen }
            extra += "google:\n" + keys.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)\n" }.joined()
            environment["STOREGATE_GOOGLE_SERVICE_ACCOUNT_KEY"] = try googleAccount.json()
        }
        if let serverAPIKey {
            let urls = appStore.apiURLs
            apple["server_api"] =
                "{issuer_id: \(AppStoreStandIn.apiIssuer), key_id: \(AppStoreStandIn.apiKeyId), bundle_id: \(serverAPIBundleId), "
                + "production_url: \"\(urls.production)\", sandbox_url: \"\(urls.sandbox)\", timeout_ms: 2000\(serverAPIExtra)}"
            if environment["STOREGATE_APPLE_SERVER_API_KEY"] == nil {
                environment["STOREGATE_APPLE_SERVER_API_KEY"] = serverAPIKey.pemRepresentation
            }
        }
        // The test gateway's own route only where it runs.
        let echo = binary == Binaries.testbed ? [("/v1/entitlement-echo", "entitlement-echo")] : []
        var setup = GatewaySetup(
            binary: binary,
            routes: [
                ("/v1/catalog", "catalog"), ("/v1/verify", "verify"), ("/v1/status", "status"),
                ("/v1/restore-sync", "restore-sync"), ("/v1/download", "download"),
                ("/v1/notifications/apple", "notifications"), ("/v1/notifications/google", "notifications"),
                ("/v1/metrics", "metrics"), ("/v1/support", "support"),
                ("/v1/entitlements", "entitlements"),
            ] + echo + moreRoutes
        )
        setup.extra = tokens + (ledgerURL.map { "ledger:\n  url: \"\($0)\"\n" } ?? "") + extra
        setup.nginxAccounts = nginxAccounts
        setup.gateways = gateways
        setup.delivery = delivery
        setup.catalog = catalog
        setup.appStore = appStore
        setup.apple = apple
        setup.server.merge(server) { _, chosen in chosen }
        setup.environment = environment
        setup.fileSizeLimit = fileSizeLimit
        do {
            deployment = try Deployment(setup)
        } catch {
            appStore.stop()
            throw error
        }
    }

    /// `POST /v1/verify` with the receipt named `name`.
    func verify(_ name: String, timeout: Duration = .seconds(30)) throws -> HTTPResponse {
        try deployment.request("/v1/verify", method: "POST", body: Receipt.body(name), timeout: timeout)
    }

    /// Adds one fixture receipt to the stand-in and returns its name.
    @discardableResult
    func receipt(
        _ name: String = Receipt.unique("receipt"),
        transactions: [[String: Any]],
        environment: String = "Production",
        extra: [String: Any] = [:]
    ) throws -> String {
        var fixture: [String: Any] = [
            "receipt": name, "environment": environment, "transactions": transactions,
            "bundle_id": SampleContent.bundleId,
        ]
        fixture.merge(extra) { _, chosen in chosen }
        try appStore.add([fixture])
        return name
    }

    var ledgerPath: String { deployment.folder.appendingPathComponent("ledger.sqlite").path }

    func ledgerCounts() throws -> LedgerCounts {
        guard let ledgerURL else { return try SQLiteLedger(path: ledgerPath).counts() }
        return try PostgresLedger(url: ledgerURL, poolSize: 1).counts()
    }

    /// `POST /v1/restore-sync` with the receipt named `name`.
    func restore(_ name: String, timeout: Duration = .seconds(30)) throws -> HTTPResponse {
        try deployment.request("/v1/restore-sync", method: "POST", body: Receipt.body(name), timeout: timeout)
    }

    /// `GET /v1/download/{product}` with a Bearer token.
    func download(_ product: String, token: String, headers: [(String, String)] = [], method: String = "GET") throws
        -> HTTPResponse
    {
        try deployment.request(
            "/v1/download/\(product)", method: method, headers: [("Authorization", "Bearer \(token)")] + headers)
    }

    /// Everything logged once the request line of `answer` is out: request lines wait a few milliseconds
    /// to be written together (`log.flush_ms`), and lines are written in order, so the lines of every
    /// request answered before it are there too.
    func logs(through answer: HTTPResponse) throws -> String {
        let id = try #require(answer.header("X-Request-Id"))
        #expect(
            ManagedProcess.poll(for: .seconds(5)) { logs.contains("msg=request ") && logs.contains("request-id=\(id)") }
        )
        return logs
    }

    /// Everything the gateway and nginx logged.
    var logs: String {
        deployment.gateways.map(\.log).joined()
            + ((try? String(contentsOfFile: deployment.folder.path + "/nginx/error.log", encoding: .utf8)) ?? "")
    }

    func stop() {
        deployment.stop()
        appStore.stop()
    }
}

extension HTTPResponse {
    /// `error.apple_status` of an error body.
    var appleStatus: Int? { (json["error"] as? [String: Any])?["apple_status"] as? Int }

    var transactions: [[String: Any]] { json["transactions"] as? [[String: Any]] ?? [] }

    /// The download token of the entitlement to `product`.
    func downloadToken(for product: String) -> String? {
        (json["entitlements"] as? [[String: Any]])?.first { $0["product_id"] as? String == product }?["download_token"]
            as? String
    }

    var entitlementProducts: [String] {
        (json["entitlements"] as? [[String: Any]] ?? []).compactMap { $0["product_id"] as? String }
    }
}
