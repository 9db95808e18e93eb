import AppStoreSim
import CryptoExtras
import Foundation

/// Google's stand-in on a free loopback port, knowing one test service account, and the `google` config section
/// that points a gateway at it.
public struct GoogleStandIn: Sendable {
    public let google: SimGooglePlay
    public let server: SimHTTPServer
    public var baseURL: String { "http://127.0.0.1:\(server.port)" }
    public var tokenURL: String { baseURL + "/token" }

    public init(_ account: GoogleTestAccount, tokenLifetime: Int = 3599) throws {
        google = try SimGooglePlay(
            login: try SimGoogleLoginCheck(
                clientEmail: GoogleTestAccount.email, publicKeyPEM: account.key.publicKey.pemRepresentation),
            tokenLifetime: tokenLifetime)
        server = try SimHTTPServer(simulator: AppStoreSimulator(), googlePlay: google)
    }

    /// Queues failures, as a test's `POST /_sim/google/steps` would.
    public func play(_ steps: [SimGoogleStep]) throws {
        let answer = google.answer(
            method: "POST", path: "/_sim/google/steps", authorization: nil,
            body: Array(try JSONEncoder().encode(steps)))
        guard answer?.status == 201 else { throw Refused() }
    }

    /// A `google` section pointing at this stand-in with `fields` besides, and the environment that carries
    /// `account`'s key as an operator would (`STOREGATE_GOOGLE_SERVICE_ACCOUNT_KEY`).
    public func section(
        _ account: GoogleTestAccount, _ fields: [String: String] = [:]
    ) throws -> (yaml: String, environment: [String: String]) {
        let all = ["api_url": baseURL, "token_url": tokenURL].merging(fields) { $1 }
        var yaml = "google:\n"
        for (name, value) in all.sorted(by: { $0.key < $1.key }) {
            yaml += value.hasPrefix("[") ? "  \(name): \(value)\n" : "  \(name): \"\(value)\"\n"
        }
        return (yaml, ["STOREGATE_GOOGLE_SERVICE_ACCOUNT_KEY": try account.json()])
    }

    struct Refused: Error {}
}
