import Foundation
import GatewayCore

/// How the gateway reaches Google, from the `google` config section: the service account, Google's token
/// endpoint and the Play Developer API, how long a call may take, how often to try, and the per-minute budget.
package struct GoogleAPISettings: Sendable {
    package static let googleAPIURL = "https://androidpublisher.googleapis.com"
    package static let googleTokenURL = "https://oauth2.googleapis.com/token"

    package var account: GoogleServiceAccount
    /// The Play Developer API's base (`api_url`).
    package var apiURL: String
    /// Where the service account's assertion is exchanged for an access token (`token_url`).
    package var tokenURL: String
    /// The limit for one call (`timeout_ms`).
    package var callTimeout: Duration
    /// Calls per request when Google is in trouble (`max_attempts`), bounded by the request's deadline.
    package var maxAttempts: Int

    /// How long one call from background work may take, every attempt and a login each included: a claim on
    /// the work outlives it, so no other gateway sends what this one still may.
    package var backgroundCallDeadline: Duration { callTimeout * (2 * maxAttempts) + .seconds(5) }
    /// Calls to the Play Developer API per rolling minute (`calls_per_minute`): Google's default quota is 3,000
    /// a minute per bucket, and the gateway stops short of it instead of running into it.
    package var callsPerMinute: Int

    /// Reads the section's connection keys; nil with problems reported when the key is missing or unusable.
    /// The key comes from `service_account_key_file`, or as JSON text from `service_account_key` (in practice
    /// `STOREGATE_GOOGLE_SERVICE_ACCOUNT_KEY`); neither is ever logged, and a problem names the key path only.
    package init?(_ google: ConfigReader) {
        apiURL = google.serviceURL("api_url", default: Self.googleAPIURL)
        tokenURL = google.serviceURL("token_url", default: Self.googleTokenURL)
        callTimeout = .milliseconds(google.int("timeout_ms", default: 10_000, in: 100...120_000))
        maxAttempts = google.int("max_attempts", default: 3, in: 1...10)
        callsPerMinute = google.int("calls_per_minute", default: 2_500, in: 1...1_000_000)
        guard let (json, key) = Self.keyText(google) else { return nil }
        do {
            account = try GoogleServiceAccount(json: json)
        } catch {
            google.report(key, error.reason)
            return nil
        }
    }

    /// The key file's bytes and the config key they came from.
    private static func keyText(_ google: ConfigReader) -> ([UInt8], String)? {
        if let text = google.string("service_account_key"), !text.isEmpty {
            return (Array(text.utf8), "service_account_key")
        }
        guard let path = google.string("service_account_key_file"), !path.isEmpty else {
            google.report(
                "service_account_key_file",
                "is required: the service account's JSON key from Google Cloud, or its text in STOREGATE_GOOGLE_SERVICE_ACCOUNT_KEY"
            )
            return nil
        }
        let resolved = google.resolvePath(path)
        guard let data = FileManager.default.contents(atPath: resolved) else {
            let reason =
                FileManager.default.fileExists(atPath: resolved) ? "it cannot be read" : "there is no such file"
            google.report("service_account_key_file", "cannot read \(path): \(reason)")
            return nil
        }
        return (Array(data), "service_account_key_file")
    }
}
