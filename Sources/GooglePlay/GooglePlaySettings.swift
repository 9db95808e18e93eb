import Foundation
import GatewayHandlerAPI
import GooglePlayAPI

/// The `google` config section: the apps this server sells for, whether test purchases count, and how to
/// reach Google (``GoogleAPISettings``).
struct GooglePlaySettings: Sendable {
    /// The apps' package names (`package_names`); a purchase of another app is `bundle_mismatch`.
    let packageNames: [String]
    /// License testers' purchases (Google's sandbox) are accepted (`accept_sandbox`, default true as for the
    /// App Store); they are recorded in the `Sandbox` environment either way.
    let acceptSandbox: Bool
    /// How long Google's answers stay cached (`cache_ttl_s`; 0 turns the cache off), and the memory they may hold
    /// (`cache_max_bytes`), as `apple`'s.
    let cacheTTL: Duration
    let cacheMaxBytes: Int
    /// The gateway acknowledges the purchases it records (`acknowledge`, default true; false when the app does).
    let acknowledge: Bool
    /// The gateway consumes the consumables it records, after their first download when they have content
    /// (`consume`, default true; false when the app does).
    let consume: Bool
    let api: GoogleAPISettings
    /// How often a serving gateway reads Google's voided purchases (`voided_purchases_poll_s`; 0, the default,
    /// never: `storegate notifications backfill` still reads them).
    let voidedPollInterval: TimeInterval?
    /// The Pub/Sub push subscription of the real-time developer notifications (`notifications`), if any.
    let push: GooglePushSettings?

    init?(_ google: ConfigReader) {
        packageNames = google.stringList("package_names")
        if packageNames.isEmpty {
            google.report("package_names", "must list the package names of the Android apps this server sells for")
        }
        acceptSandbox = google.bool("accept_sandbox", default: true)
        cacheTTL = .seconds(google.int("cache_ttl_s", default: 60, in: 0...86_400))
        cacheMaxBytes = google.int("cache_max_bytes", default: 16 << 20, in: 0...(1 << 34))
        acknowledge = google.bool("acknowledge", default: true)
        consume = google.bool("consume", default: true)
        let poll = google.int("voided_purchases_poll_s", default: 0, in: 0...86_400)
        voidedPollInterval = poll > 0 ? TimeInterval(poll) : nil
        push = GooglePushSettings(google)
        guard let api = GoogleAPISettings(google), !packageNames.isEmpty else { return nil }
        self.api = api
    }
}
