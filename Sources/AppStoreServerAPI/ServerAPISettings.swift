import Foundation
import GatewayCore

/// The `apple.server_api` config section: the in-app purchase key and where the App Store Server API lives.
/// Absent section, no client: the gateway then never calls the Server API.
package struct ServerAPISettings: Sendable {
    package static let appleProductionURL = "https://api.storekit.apple.com"
    package static let appleSandboxURL = "https://api.storekit-sandbox.apple.com"

    package var credentials: ServerAPICredentials
    package var productionURL: String
    package var sandboxURL: String
    /// A 404 for a transaction in production is asked again in the sandbox (as 21007 did).
    package var acceptSandbox: Bool
    /// The limit for one call (`timeout_ms`).
    package var callTimeout: Duration
    /// Calls per request when Apple is in trouble (`max_attempts`), bounded by the request's deadline.
    package var maxAttempts: Int
    /// How long one call from background work may take, every attempt included (and the pauses between them):
    /// a claim on the work outlives it, so no other gateway sends what this one still may.
    package var backgroundCallDeadline: Duration { callTimeout * maxAttempts + .seconds(5) }
    /// Calls per endpoint per rolling hour (`calls_per_hour`): the gateway stops short of Apple's limits
    /// instead of running into them.
    package var callsPerHour: Int
    /// Pages read at most for one history (`max_pages`), so a lying upstream cannot page forever.
    package var maxPages: Int
    /// A gateway starting reads Apple's notification history since the ledger's last notification
    /// (`backfill_on_start`, off by default).
    package var backfillOnStart: Bool
    /// A purchase bound to an app account whose id is a UUID, and whose transactions carry no such
    /// `appAccountToken`, gets it through Set App Account Token (`set_app_account_token`, off by default).
    package var setsAppAccountToken: Bool
    /// When the gateway finishes a consumable's or non-consumable's transaction with Finish Transaction
    /// (`finish_transactions`: `never`, the app does it, by default).
    package var finishTransactions: TransactionFinishing
    /// Only transactions bought this recently are finished (`finish_within_hours`, 72 by default): a restore's
    /// history holds years of transactions the app finished long ago.
    package var finishWithin: TimeInterval

    /// Reads `apple.server_api`; nil (and nothing reported) when the section is absent, nil with problems
    /// reported when it is wrong. The key comes from `key_file`, or as PEM text from `key` (in practice
    /// `STOREGATE_APPLE_SERVER_API_KEY`); neither is ever logged.
    package init?(_ apple: ConfigReader, bundleIds: Set<String>, acceptSandbox: Bool) {
        guard apple.hasSection("server_api") else { return nil }
        let api = apple.scoped("server_api")
        productionURL = api.serviceURL("production_url", default: Self.appleProductionURL)
        sandboxURL = api.serviceURL("sandbox_url", default: Self.appleSandboxURL)
        callTimeout = .milliseconds(api.int("timeout_ms", default: 10_000, in: 100...120_000))
        maxAttempts = api.int("max_attempts", default: 3, in: 1...10)
        callsPerHour = api.int("calls_per_hour", default: 3_000, in: 1...1_000_000)
        maxPages = api.int("max_pages", default: 200, in: 1...10_000)
        backfillOnStart = api.bool("backfill_on_start", default: false)
        setsAppAccountToken = api.bool("set_app_account_token", default: false)
        finishTransactions = api.choice("finish_transactions", default: .never)
        finishWithin = Double(api.int("finish_within_hours", default: 72, in: 1...720)) * 3_600
        self.acceptSandbox = acceptSandbox
        let issuerId = api.requiredString("issuer_id", why: "is required: the issuer id from App Store Connect")
        let keyId = api.requiredString("key_id", why: "is required: the in-app purchase key's id")
        let bundleId = api.string("bundle_id") ?? (bundleIds.count == 1 ? bundleIds.first : nil)
        if bundleId == nil { api.report("bundle_id", "is required when apple.bundle_ids lists several apps") }
        let pem = Self.keyPEM(api)
        guard let issuerId, let keyId, let bundleId, let pem else { return nil }
        do {
            credentials = try ServerAPICredentials(issuerId: issuerId, keyId: keyId, bundleId: bundleId, keyPEM: pem)
        } catch {
            api.report(api.string("key") == nil ? "key_file" : "key", error.reason)
            return nil
        }
    }

    private static func keyPEM(_ api: ConfigReader) -> String? {
        if let text = api.string("key"), !text.isEmpty { return text }
        guard let path = api.string("key_file"), !path.isEmpty else {
            api.report(
                "key_file", "is required: the in-app purchase key (.p8), or its text in STOREGATE_APPLE_SERVER_API_KEY")
            return nil
        }
        guard let data = FileManager.default.contents(atPath: api.resolvePath(path)) else {
            api.report("key_file", "cannot read \(path)")
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }
}
