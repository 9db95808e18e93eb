import ConfigYAML
import CoreMetrics
import GatewayCore
import GoogleTestSupport

@testable import GooglePlayAPI

/// The API client's own ways into Google's stand-in.
extension GoogleStandIn {
    /// The gateway's login for `account` (whose key the stand-in may not know), against this stand-in, making
    /// `maxAttempts` calls per login while Google is in trouble.
    func login(_ account: GoogleTestAccount, maxAttempts: Int = 3) throws -> GoogleLogin {
        GoogleLogin(
            account: try GoogleServiceAccount(json: Array(try account.json().utf8)), tokenURL: tokenURL,
            http: GoogleHTTP(
                callTimeout: .seconds(5), maxAttempts: maxAttempts,
                metrics: GooglePlayMetrics(factory: NOOPMetricsHandler.instance)))
    }

    /// A client of this stand-in as the service account `account`, read from a `google` section with `fields`.
    func client(_ account: GoogleTestAccount, _ fields: [String: String] = [:]) throws -> GooglePlayClient {
        GooglePlayClient(settings: try settings(account, fields), metricsFactory: NOOPMetricsHandler.instance)
    }

    func settings(_ account: GoogleTestAccount, _ fields: [String: String] = [:]) throws -> GoogleAPISettings {
        let (yaml, environment) = try section(account, fields)
        let reader = try ConfigReader(yaml: yaml, source: "test", baseDirectory: "/tmp", environment: environment)
        guard let settings = GoogleAPISettings(reader.scoped("google")), reader.problems.isEmpty else {
            throw SettingsRefused(problems: reader.problems.map(\.description))
        }
        return settings
    }

    struct SettingsRefused: Error {
        let problems: [String]
    }
}
