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
    let api: GoogleAPISettings

    init?(_ google: ConfigReader) {
        packageNames = google.stringList("package_names")
        if packageNames.isEmpty {
            google.report("package_names", "must list the package names of the Android apps this server sells for")
        }
        acceptSandbox = google.bool("accept_sandbox", default: true)
        guard let api = GoogleAPISettings(google), !packageNames.isEmpty else { return nil }
        self.api = api
    }
}
