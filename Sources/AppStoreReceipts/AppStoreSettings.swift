import AppStoreSignedData
import Foundation
import GatewayHandlerAPI

/// The `apple` config section: where verifyReceipt lives and what the gateway accepts from it.
package struct AppStoreSettings: Sendable {
    package static let appleProductionURL = "https://buy.itunes.apple.com/verifyReceipt"
    package static let appleSandboxURL = "https://sandbox.itunes.apple.com/verifyReceipt"

    package var bundleIds: Set<String>
    package var productionURL: String
    package var sandboxURL: String
    /// Sent as `password`; never logged.
    package var sharedSecret: String
    /// The limit for one call to Apple (`timeout_ms`).
    package var callTimeout: Duration
    package var acceptSandbox: Bool
    /// How long verdicts stay cached (`cache_ttl_s`; 0 turns the cache off).
    package var cacheTTL: Duration
    /// The memory the cache may hold, counted in Apple's answer bytes (`cache_max_bytes`).
    package var cacheMaxBytes: Int
    /// Calls per verification when Apple is in trouble (`max_attempts`), bounded by the request's deadline.
    package var maxAttempts: Int
    /// Connections kept open to each Apple host (`max_connections`).
    package var maxConnections: Int
    /// Calls to Apple in flight at once, across hosts (`max_concurrent_calls`); more wait for a turn
    /// until their deadline, then answer 503 `upstream_unavailable`.
    package var maxConcurrentCalls: Int
    /// Verifies StoreKit 2 signed transactions against `root_certificates` for `environments`; nil without
    /// roots, and then signed transactions are refused.
    package var signedData: SignedDataVerifier?
    /// How app receipts are verified (`verifier`).
    package var receiptVerification: ReceiptVerification
    /// The app's Apple ID (`app_apple_id`), checked on Production notifications when set.
    package var appAppleId: Int?
    /// The Finish Transaction follow-ups recorded purchases bring, when `server_api.finish_transactions` asks for
    /// them (set once `server_api` is read).
    var finishes: FinishFollowUps?

    /// Reads the `apple` section, reporting problems with their key paths.
    package init(_ apple: ConfigReader) {
        bundleIds = Set(apple.stringList("bundle_ids"))
        if bundleIds.isEmpty {
            apple.report("bundle_ids", "must list the bundle ids of the apps this server sells for")
        }
        productionURL = apple.serviceURL("production_url", default: Self.appleProductionURL)
        sandboxURL = apple.serviceURL("sandbox_url", default: Self.appleSandboxURL)
        sharedSecret = apple.string("shared_secret", default: "")
        callTimeout = .milliseconds(apple.int("timeout_ms", default: 10_000, in: 100...120_000))
        acceptSandbox = apple.bool("accept_sandbox", default: true)
        cacheTTL = .seconds(apple.int("cache_ttl_s", default: 60, in: 0...86_400))
        cacheMaxBytes = apple.int("cache_max_bytes", default: 16 << 20, in: 0...(1 << 34))
        maxAttempts = apple.int("max_attempts", default: 4, in: 1...10)
        maxConnections = apple.int("max_connections", default: 128, in: 1...4096)
        maxConcurrentCalls = apple.int("max_concurrent_calls", default: 64, in: 1...4096)
        signedData = Self.signedDataVerifier(apple, bundleIds: bundleIds, acceptSandbox: acceptSandbox)
        receiptVerification = Self.receiptVerification(apple, haveRoots: signedData != nil)
        let appAppleId = apple.int("app_apple_id", default: 0, in: 0...Int.max)
        self.appAppleId = appAppleId == 0 ? nil : appAppleId
    }

    private static func receiptVerification(_ apple: ConfigReader, haveRoots: Bool) -> ReceiptVerification {
        let text = apple.string("verifier", default: ReceiptVerification.online.rawValue)
        guard let mode = ReceiptVerification(rawValue: text) else {
            apple.report("verifier", "must be online, local, local-then-online or server-api, not \(text)")
            return .online
        }
        if mode != .online, !haveRoots {
            apple.report("verifier", "\(text) verification needs apple.root_certificates (Apple Root CA)")
        }
        if mode == .serverAPI, !apple.hasSection("server_api") {
            apple.report("verifier", "server-api verification needs apple.server_api")
        }
        return mode
    }

    /// `root_certificates` (DER or PEM files) and `environments` (default Production, and Sandbox unless
    /// `accept_sandbox` is false, which also drops a listed Sandbox).
    private static func signedDataVerifier(_ apple: ConfigReader, bundleIds: Set<String>, acceptSandbox: Bool)
        -> SignedDataVerifier?
    {
        var environments = Set(apple.stringList("environments"))
        if environments.isEmpty { environments = ["Production", "Sandbox"] }
        if !acceptSandbox { environments.remove("Sandbox") }
        var roots: [Data] = []
        for path in apple.stringList("root_certificates") {
            guard let data = FileManager.default.contents(atPath: apple.resolvePath(path)) else {
                apple.report("root_certificates", "cannot read \(path)")
                continue
            }
            roots.append(data)
        }
        guard !roots.isEmpty else { return nil }
        do {
            return try SignedDataVerifier(rootCertificates: roots, bundleIds: bundleIds, environments: environments)
        } catch {
            apple.report("root_certificates", error.reason)
            return nil
        }
    }
}
