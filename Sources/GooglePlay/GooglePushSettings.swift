import Foundation
import GatewayHandlerAPI
import GooglePlayAPI

/// `google.notifications`: the Pub/Sub push subscription whose real-time developer notifications the gateway
/// takes, known by the OIDC token Pub/Sub signs for each push: its `audience`, the service account it signs as
/// (`email`), and Google's keys (`jwks_file`, or `jwks_url`, Google's by default). Without the section, pushes
/// are refused.
struct GooglePushSettings: Sendable {
    static let googleKeysURL = "https://www.googleapis.com/oauth2/v3/certs"

    let audience: String
    let email: String
    let keys: GooglePushAuthenticator.KeySource

    /// Reads `notifications` under `google`; nil when absent, or with problems reported when incomplete.
    init?(_ google: ConfigReader) {
        guard google.hasSection("notifications") else { return nil }
        let section = google.scoped("notifications")
        let audience = section.string("audience") ?? ""
        let email = section.string("email") ?? ""
        if audience.isEmpty {
            section.report("audience", "must be the push subscription's audience (its endpoint URL, unless set)")
        }
        if email.isEmpty { section.report("email", "must be the service account the push subscription signs as") }
        var keys = GooglePushAuthenticator.KeySource.url(section.serviceURL("jwks_url", default: Self.googleKeysURL))
        if let file = section.string("jwks_file"), !file.isEmpty {
            guard let document = FileManager.default.contents(atPath: section.resolvePath(file)) else {
                section.report("jwks_file", "cannot read \(file)")
                return nil
            }
            keys = .document(Array(document))
        }
        guard !audience.isEmpty, !email.isEmpty else { return nil }
        self.audience = audience
        self.email = email
        self.keys = keys
    }
}
