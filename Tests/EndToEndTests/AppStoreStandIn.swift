import Foundation
import GoogleTestSupport
import SignedTestData

/// The App Store stand-in (`storegate-appstore-sim`) as a real process on a free loopback port.
final class AppStoreStandIn: @unchecked Sendable {
    let port: Int
    private let process: ManagedProcess
    private let folder: URL

    static let apiIssuer = "issuer-e2e"
    static let apiKeyId = "E2EKEY0001"

    /// With `serverAPIPublicKey` (PEM) it also speaks the App Store Server API, trusting tokens signed by
    /// the matching private key for `apiBundleId` and signing its answers with Apple's test chain.
    init(
        sharedSecret: String? = nil, acceptAnyProduct: String? = nil, serverAPIPublicKey: String? = nil,
        apiBundleId: String = SampleContent.bundleId, googlePublicKey: String? = nil,
        googleTokenLifetime: Int? = nil
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storegate-sim-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try FreePort.next()
        var arguments = ["--listen", "127.0.0.1:\(port)"]
        if let sharedSecret { arguments += ["--shared-secret", sharedSecret] }
        if let acceptAnyProduct { arguments += ["--accept-any", acceptAnyProduct] }
        if let serverAPIPublicKey {
            let keyFile = folder.appendingPathComponent("api-key.pem")
            try serverAPIPublicKey.write(to: keyFile, atomically: true, encoding: .utf8)
            let chain = SignedVectors.folder.appendingPathComponent("apple-app-store-server-library-java")
            arguments += [
                "--api-public-key", keyFile.path, "--api-issuer", Self.apiIssuer, "--api-key-id", Self.apiKeyId,
                "--api-bundle-id", apiBundleId, "--page-size", "2",
                "--api-app-apple-id", String(SampleContent.appAppleId),
                "--signing-key", chain.appendingPathComponent("testLeaf.key").path, "--signing-chain",
                ["testLeaf", "testIntermediate", "testCA"].map { chain.appendingPathComponent("\($0).pem").path }
                    .joined(separator: ","),
            ]
        }
        if let googlePublicKey {
            let keyFile = folder.appendingPathComponent("google-key.pem")
            try googlePublicKey.write(to: keyFile, atomically: true, encoding: .utf8)
            arguments += ["--google-public-key", keyFile.path, "--google-client-email", GoogleTestAccount.email]
            if let googleTokenLifetime { arguments += ["--google-token-lifetime", String(googleTokenLifetime)] }
        }
        process = try ManagedProcess(
            Binaries.appStoreSim.path, arguments, logFile: folder.appendingPathComponent("sim.log"))
        let port = port
        guard
            ManagedProcess.poll(
                for: .seconds(10), { (try? HTTPClient.request(port: port, path: "/_sim/calls"))?.status == 200 })
        else {
            stop()
            throw HTTPClient.Failure(description: "the App Store stand-in did not start")
        }
    }

    var productionURL: String { "http://127.0.0.1:\(port)/verifyReceipt" }
    var sandboxURL: String { "http://127.0.0.1:\(port)/sandbox/verifyReceipt" }

    /// Adds fixture receipts (see `SimReceipt`), given as JSON objects.
    func add(_ receipts: [[String: Any]]) throws {
        let body = try JSONSerialization.data(withJSONObject: receipts)
        let answer = try HTTPClient.request(port: port, method: "POST", path: "/_sim/receipts", body: Array(body))
        guard answer.status == 201 else { throw HTTPClient.Failure(description: "fixture refused: \(answer.text)") }
    }

    /// The Server API's base URLs (production, sandbox).
    var apiURLs: (production: String, sandbox: String) {
        ("http://127.0.0.1:\(port)", "http://127.0.0.1:\(port)/sandbox")
    }

    /// Adds Google Play purchases (see `SimGooglePurchase`), given as JSON objects.
    func addGoogle(_ purchases: [[String: Any]]) throws {
        try post("/_sim/google/purchases", purchases)
    }

    /// Queues failures of Google's side (see `SimGoogleStep`), each played once.
    func playGoogle(_ steps: [[String: Any]]) throws {
        try post("/_sim/google/steps", steps)
    }

    /// The Google Play purchase of `token` as it stands (`acknowledged`, `consumed`).
    func googlePurchase(_ token: String) throws -> [String: Any] {
        let answer = try HTTPClient.request(port: port, path: "/_sim/google/purchases/\(token)")
        return (try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]) ?? [:]
    }

    /// A push of Pub/Sub's, signed as `SimGooglePush` signs them: its `Authorization` header and body.
    func googlePush(
        notification: String, messageId: String, audience: String, email: String, forgery: String?
    ) throws -> (authorization: String?, body: String) {
        var request: [String: Any] = [
            "notification": notification, "message_id": messageId, "audience": audience, "email": email,
        ]
        if let forgery { request["forgery"] = forgery }
        let answer = try HTTPClient.request(
            port: port, method: "POST", path: "/_sim/google/pubsub",
            body: Array(try JSONSerialization.data(withJSONObject: request)))
        guard answer.status == 200, let body = answer.json["body"] as? String else {
            throw HTTPClient.Failure(description: "the stand-in made no push: \(answer.text)")
        }
        return (answer.json["authorization"] as? String, body)
    }

    /// The answers to refund reviews Google's side took, in order: `order_id`, `body`, and `kept` (the first for
    /// its order; Google ignores later ones).
    func googleRefundReviews() throws -> [[String: Any]] {
        let answer = try HTTPClient.request(port: port, path: "/_sim/google/refund-reviews")
        return (try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [[String: Any]]) ?? []
    }

    /// Calls to Google's side per endpoint.
    func googleCalls() throws -> [String: Int] {
        let answer = try HTTPClient.request(port: port, path: "/_sim/google/calls")
        return (try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Int]) ?? [:]
    }

    /// Adds Server API transactions (see `SimAPITransaction`), given as JSON objects.
    func addAPI(_ transactions: [[String: Any]]) throws {
        try post("/_sim/api/transactions", transactions)
    }

    /// Adds notifications to the Server API's notification history (see `SimAPINotification`).
    func addNotifications(_ notifications: [[String: Any]]) throws {
        try post("/_sim/api/notifications", notifications)
    }

    /// Queues Server API failures (see `SimAPIStep`), each played once.
    func playAPI(_ steps: [[String: Any]]) throws {
        try post("/_sim/api/steps", steps)
    }

    /// Every Server API call so far: `method`, `path`, `body`, `authorized`.
    func apiCalls() throws -> [[String: Any]] {
        let answer = try HTTPClient.request(port: port, path: "/_sim/api/calls")
        return (try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [[String: Any]]) ?? []
    }

    private func post(_ path: String, _ list: [[String: Any]]) throws {
        let body = try JSONSerialization.data(withJSONObject: list)
        let answer = try HTTPClient.request(port: port, method: "POST", path: path, body: Array(body))
        guard answer.status == 201 else { throw HTTPClient.Failure(description: "\(path) refused: \(answer.text)") }
    }

    /// How often `receipt` was posted to each host (`Production`, `Sandbox`).
    func calls(_ receipt: String) throws -> [String: Int] {
        let answer = try HTTPClient.request(port: port, path: "/_sim/calls")
        return (answer.json[receipt] as? [String: Int]) ?? [:]
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Test receipts: the app sends the base64 of a name the stand-in knows.
enum Receipt {
    static func data(_ name: String) -> String { Data(name.utf8).base64EncodedString() }

    static func body(_ name: String, excludeOld: Bool = false) -> [UInt8] {
        Array("{\"receipt-data\":\"\(data(name))\",\"exclude-old-transactions\":\(excludeOld)}".utf8)
    }

    /// A fresh name, so tests never share receipts or ledger rows.
    static func unique(_ label: String) -> String { "\(label)-\(UUID().uuidString.prefix(12))" }

    /// A transaction fixture.
    static func transaction(
        _ productId: String,
        _ transactionId: String,
        original: String? = nil,
        lineItem: String? = nil,
        expires: String? = nil,
        cancelled: String? = nil
    ) -> [String: Any] {
        var fields: [String: Any] = ["product_id": productId, "transaction_id": transactionId]
        if let original { fields["original_transaction_id"] = original }
        if let lineItem { fields["web_order_line_item_id"] = lineItem }
        if let expires { fields["expires"] = expires }
        if let cancelled { fields["cancelled"] = cancelled }
        return fields
    }
}
