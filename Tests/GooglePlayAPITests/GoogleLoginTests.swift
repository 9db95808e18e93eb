import AppStoreSim
import ByteCoding
import CryptoExtras
import Foundation
import GoogleTestSupport
import Logging
import Synchronization
import Testing

@testable import GooglePlayAPI

/// Google's server login: the assertion checked here with swift-crypto and by Google's own client library
/// (google-auth), and the access token's reuse, refresh and failures against the stand-in's token endpoint.
@Suite struct GoogleLoginTests {
    static let logger = Logger(label: "test")

    static func decode(_ segment: Substring) throws -> [String: Any] {
        let bytes = try #require(Base64URL.decode(Array(segment.utf8)))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func theAssertionIsGooglesAndItsSignatureVerifies() throws {
        let test = try GoogleTestAccount()
        let account = try GoogleServiceAccount(json: Array(try test.json().utf8))
        let issued = Date(timeIntervalSince1970: 1_790_000_000)
        let assertion = try GoogleLogin.assertion(account, issuedAt: issued)
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        let header = try Self.decode(parts[0])
        #expect(header["alg"] as? String == "RS256")
        #expect(header["typ"] as? String == "JWT")
        #expect(header["kid"] as? String == GoogleTestAccount.keyId)
        let claims = try Self.decode(parts[1])
        #expect(claims.count == 5)
        #expect(claims["iss"] as? String == GoogleTestAccount.email)
        #expect(claims["scope"] as? String == "https://www.googleapis.com/auth/androidpublisher")
        #expect(claims["aud"] as? String == "https://oauth2.googleapis.com/token")
        #expect((claims["iat"] as? NSNumber)?.intValue == 1_790_000_000)
        #expect((claims["exp"] as? NSNumber)?.intValue == 1_790_000_000 + 3600)
        let signature = _RSA.Signing.RSASignature(
            rawRepresentation: try #require(Base64URL.decode(Array(parts[2].utf8))))
        let signed = Array((parts[0] + "." + parts[1]).utf8)
        #expect(test.key.publicKey.isValidSignature(signature, for: signed, padding: .insecurePKCS1v1_5))
        let other = try GoogleTestAccount()
        #expect(!other.key.publicKey.isValidSignature(signature, for: signed, padding: .insecurePKCS1v1_5))
    }

    @Test func googleAuthAcceptsTheAssertion() async throws {
        let test = try GoogleTestAccount()
        let account = try GoogleServiceAccount(json: Array(try test.json().utf8))
        let assertion = try GoogleLogin.assertion(account, issuedAt: Date())
        let claims = try await Python.run(
            """
            import json, sys
            from google.auth import jwt
            certs = {sys.argv[2]: sys.argv[3]}
            print(json.dumps(jwt.decode(sys.argv[1], certs=certs, audience="https://oauth2.googleapis.com/token")))
            """, arguments: [assertion, GoogleTestAccount.keyId, test.key.publicKey.pemRepresentation])
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(claims.utf8)) as? [String: Any])
        #expect(decoded["iss"] as? String == GoogleTestAccount.email)
        #expect(decoded["scope"] as? String == "https://www.googleapis.com/auth/androidpublisher")
        let forged = try await Python.run(
            """
            import sys
            from google.auth import jwt
            try:
                jwt.decode(sys.argv[1], certs={sys.argv[2]: sys.argv[3]}, audience="https://oauth2.googleapis.com/token")
                print("accepted")
            except ValueError as error:
                print("refused")
            """,
            arguments: [assertion, GoogleTestAccount.keyId, try GoogleTestAccount().key.publicKey.pemRepresentation])
        #expect(forged.trimmingCharacters(in: .whitespacesAndNewlines) == "refused")
    }

    @Test func theStandInTakesGoogleAuthsOwnLogin() async throws {
        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        let json = try test.json(tokenURI: stand.tokenURL)
        let token = try await Python.run(
            """
            import json, sys
            from google.oauth2 import service_account
            from google.auth.transport.requests import Request
            info = json.loads(sys.argv[1])
            creds = service_account.Credentials.from_service_account_info(
                info, scopes=["https://www.googleapis.com/auth/androidpublisher"])
            creds.refresh(Request())
            print(creds.token)
            """, arguments: [json])
        #expect(token.hasPrefix("ya29.sim-"))
        #expect(stand.google.calls["token"] == 1)
    }

    @Test func aTokenIsReusedAndConcurrentRequestsShareOneLogin() async throws {
        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        try stand.play([SimGoogleStep(endpoint: "token", delayMs: 1_000)])
        let login = try stand.login(test)
        let tokens = Mutex<[String]>([])
        await Together.run(8) {
            let token = try? login.accessToken(deadline: .now + .seconds(10), logger: Self.logger)
            tokens.withLock { $0.append(token ?? "failed") }
        }
        let got = tokens.withLock { $0 }
        #expect(got.count == 8)
        #expect(Set(got).count == 1)
        #expect(got[0].hasPrefix("ya29.sim-"))
        #expect(
            try await OnThread.value { try login.accessToken(deadline: .now + .seconds(10), logger: Self.logger) }
                == got[0])
        #expect(stand.google.calls["token"] == 1)
    }

    @Test func aTokenCloseToItsExpiryIsRenewed() async throws {
        let test = try GoogleTestAccount()
        // Google's tokens live an hour; these live less than the renewal margin, so each is renewed at once.
        let stand = try GoogleStandIn(test, tokenLifetime: 120)
        let login = try stand.login(test)
        let first = try await OnThread.value {
            try login.accessToken(deadline: .now + .seconds(10), logger: Self.logger)
        }
        let second = try await OnThread.value {
            try login.accessToken(deadline: .now + .seconds(10), logger: Self.logger)
        }
        #expect(first != second)
        #expect(stand.google.calls["token"] == 2)
    }

    /// Four callers at once: one logs in, and Google keeps its refusal back until the other three are seen
    /// waiting for it (not guessed to be: the test waits for them); all four get its failure, one login. The test
    /// never suspends: on a loaded run, a test that awaited waited a minute for a thread of the pool to resume it.
    @Test func aRefusedLoginSaysWhyInWordsAndItsWaitersShareTheFailure() throws {
        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        stand.server.hold.hold()
        let impostor = try GoogleTestAccount()
        let login = try stand.login(impostor)
        let failures = Mutex<[GooglePlayFailure]>([])
        let finished = Together.start(4) {
            do throws(GooglePlayFailure) {
                _ = try login.accessToken(deadline: .now + .seconds(120), logger: Self.logger)
            } catch {
                failures.withLock { $0.append(error) }
            }
        }
        var waiting = 0
        let giveUp = ContinuousClock.now + .seconds(60)
        while waiting < 3, ContinuousClock.now < giveUp {
            usleep(10_000)
            waiting = login.waitingForRefresh
        }
        #expect(waiting == 3, "three callers wait for the one login under way")
        stand.server.hold.release()
        #expect(finished.wait(timeout: .now() + 120) == .success)
        let failed = failures.withLock { $0 }
        #expect(failed.count == 4)
        #expect(failed.allSatisfy { $0.kind == .misconfigured })
        #expect(failed.first?.reason.contains("Invalid JWT Signature") == true)
        #expect(failed.first?.reason.contains("google.service_account_key") == true)
        #expect(stand.google.calls["token"] == 1)
    }

    @Test func googleInTroubleIsTriedAgainThenReportedUnavailable() async throws {
        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        try stand.play([SimGoogleStep(endpoint: "token", httpStatus: 503)])
        let login = try stand.login(test)
        #expect(
            try await OnThread.value { try login.accessToken(deadline: .now + .seconds(10), logger: Self.logger) }
                .hasPrefix("ya29.sim-"))
        #expect(stand.google.calls["token"] == 2)

        let down = try GoogleStandIn(test)
        try down.play(Array(repeating: SimGoogleStep(endpoint: "token", httpStatus: 500), count: 3))
        let downLogin = try down.login(test)
        let outcome = await OnThread.result { () throws(GooglePlayFailure) in
            try downLogin.accessToken(deadline: .now + .seconds(10), logger: Self.logger)
        }
        guard case .failure(let failure) = outcome else {
            Issue.record("Google down gave a token")
            return
        }
        #expect(failure.kind == .unavailable)
        #expect(failure.reason.contains("500"))
        #expect(down.google.calls["token"] == 3)
    }

    @Test func aTokenEndpointThatLiesOrDawdlesGivesNoToken() async throws {
        let test = try GoogleTestAccount()
        let stand = try GoogleStandIn(test)
        var garbage = SimGoogleStep(endpoint: "token")
        garbage.body = "<html>sign in</html>"
        var empty = SimGoogleStep(endpoint: "token")
        empty.body = #"{"token_type": "Bearer"}"#
        try stand.play([garbage, empty, SimGoogleStep(endpoint: "token", delayMs: 3_000)])
        // One call per login, so each login meets the next step, whatever a retry's backoff would have taken.
        let login = try stand.login(test, maxAttempts: 1)
        for expected in ["without an access token", "without an access token", "no answer in time"] {
            let outcome = await OnThread.result { () throws(GooglePlayFailure) in
                try login.accessToken(deadline: .now + .seconds(1), logger: Self.logger)
            }
            guard case .failure(let failure) = outcome else {
                Issue.record("a token from a lying or slow endpoint")
                continue
            }
            #expect(failure.kind == .unavailable)
            #expect(failure.reason.contains(expected), "\(failure.reason)")
        }
    }

    @Test func aKeyFileThatIsNotAServiceAccountKeySaysWhatIsWrongWithoutQuotingIt() throws {
        let test = try GoogleTestAccount()
        var fields = try #require(
            try JSONSerialization.jsonObject(with: Data(try test.json().utf8)) as? [String: String])
        let pem = try #require(fields["private_key"])
        fields["private_key"] = String(pem.dropLast(80))
        let broken = try JSONSerialization.data(withJSONObject: fields)
        let failure = try #require(throws: GooglePlayFailure.self) {
            try GoogleServiceAccount(json: Array(broken))
        }
        #expect(failure.kind == .misconfigured)
        #expect(failure.reason.contains("private_key"))
        #expect(!failure.reason.contains(String(pem.split(separator: "\n")[1])))
        fields["type"] = "authorized_user"
        #expect(throws: GooglePlayFailure.self) {
            try GoogleServiceAccount(json: Array(try JSONSerialization.data(withJSONObject: fields)))
        }
        let account = try GoogleServiceAccount(json: Array(try test.json().utf8))
        #expect("\(account)" == "service account \(GoogleTestAccount.email) (key \(GoogleTestAccount.keyId))")
    }
}
