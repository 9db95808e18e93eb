import AppStoreSim
import ConfigYAML
import CoreMetrics
import CryptoExtras
import Foundation
import GatewayCore

@testable import GooglePlayAPI

/// Google's stand-in on a free loopback port, knowing one test service account.
struct StandIn {
    let google: SimGooglePlay
    let server: SimHTTPServer
    var tokenURL: String { "http://127.0.0.1:\(server.port)/token" }

    init(_ account: GoogleTestAccount, tokenLifetime: Int = 3599) throws {
        google = SimGooglePlay(
            login: try SimGoogleLoginCheck(
                clientEmail: GoogleTestAccount.email, publicKeyPEM: account.key.publicKey.pemRepresentation),
            tokenLifetime: tokenLifetime)
        server = try SimHTTPServer(simulator: AppStoreSimulator(), googlePlay: google)
    }

    /// Queues failures, as a test's `POST /_sim/google/steps` would.
    func play(_ steps: [SimGoogleStep]) throws {
        let answer = google.answer(
            method: "POST", path: "/_sim/google/steps", authorization: nil,
            body: Array(try JSONEncoder().encode(steps)))
        guard answer?.status == 201 else { throw StandInError.stepsRefused }
    }

    /// The gateway's login for `account` (whose key the stand-in may not know), against this stand-in.
    func login(_ account: GoogleTestAccount) throws -> GoogleLogin {
        GoogleLogin(
            account: try GoogleServiceAccount(json: Array(try account.json().utf8)), tokenURL: tokenURL,
            http: GoogleHTTP(
                callTimeout: .seconds(5), maxAttempts: 3,
                metrics: GooglePlayMetrics(factory: NOOPMetricsHandler.instance)))
    }

    /// A client of this stand-in as the service account `account`, read from a `google` section with `fields`
    /// (the key given as text in the environment, as an operator would).
    func client(_ account: GoogleTestAccount, _ fields: [String: String] = [:]) throws -> GooglePlayClient {
        GooglePlayClient(settings: try settings(account, fields), metricsFactory: NOOPMetricsHandler.instance)
    }

    func settings(_ account: GoogleTestAccount, _ fields: [String: String] = [:]) throws -> GoogleAPISettings {
        let base = "http://127.0.0.1:\(server.port)"
        let all = ["api_url": base, "token_url": base + "/token"].merging(fields) { $1 }
        var yaml = "google:\n"
        for (name, value) in all.sorted(by: { $0.key < $1.key }) { yaml += "  \(name): \"\(value)\"\n" }
        let reader = try ConfigReader(
            yaml: yaml, source: "test", baseDirectory: "/tmp",
            environment: ["STOREGATE_GOOGLE_SERVICE_ACCOUNT_KEY": try account.json()])
        guard let settings = GoogleAPISettings(reader.scoped("google")), reader.problems.isEmpty else {
            throw StandInError.settings(reader.problems.map(\.description).joined(separator: "; "))
        }
        return settings
    }

    enum StandInError: Error {
        case stepsRefused
        case settings(String)
    }
}
