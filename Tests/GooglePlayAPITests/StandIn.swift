import AppStoreSim
import CryptoExtras
import Foundation

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
            http: GoogleHTTP(callTimeout: .seconds(5), maxAttempts: 3))
    }

    enum StandInError: Error { case stepsRefused }
}
