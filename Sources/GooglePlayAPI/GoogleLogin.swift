import AsyncHTTPClient
import Foundation
import GatewayConcurrency
import JWTKit
import Logging
import NIOCore
import NIOHTTP1

/// The service account's access tokens for the Play Developer API, by Google's server login: an RS256 JWT
/// assertion (`iss` the account's `client_email`, `scope` androidpublisher, `aud` Google's token endpoint,
/// `iat`, `exp` an hour on), signed by jwt-kit, posted as `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`
/// to the configured token URL. `aud` is Google's endpoint wherever the URL points (a proxy, a stand-in), as
/// Google's own client library (google-auth) sends it.
///
/// A token is reused until `renewalMargin` before Google says it expires. One refresh runs at a time: requests
/// that need a token while it runs wait for its outcome (the old token, while still valid, serves them), so a
/// burst after expiry costs Google one login, and a failed login fails its waiters with the same failure
/// rather than each trying again.
package final class GoogleLogin: Sendable {
    package static let scope = "https://www.googleapis.com/auth/androidpublisher"
    package static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// The assertion's `aud`.
    package static let audience = "https://oauth2.googleapis.com/token"
    /// Google's ceiling for an assertion's life.
    static let assertionLifetime: TimeInterval = 60 * 60
    /// Longer than any call, so a token never expires while a call carries it.
    static let renewalMargin: TimeInterval = 5 * 60

    private let account: GoogleServiceAccount
    private let tokenURL: String
    private let http: GoogleHTTP
    private let state = Shared()

    init(account: GoogleServiceAccount, tokenURL: String, http: GoogleHTTP) {
        self.account = account
        self.tokenURL = tokenURL
        self.http = http
    }

    /// A token to send now, refreshed when it is about to expire; fails with the login's failure, or
    /// `unavailable` when a refresh running elsewhere has not ended by `deadline`.
    func accessToken(deadline: ContinuousClock.Instant, logger: Logger) throws(GooglePlayFailure) -> String {
        let condition = state.condition
        condition.lock()
        var awaited: Int?
        while true {
            let now = Date()
            if let current = state.current, current.expires.timeIntervalSince(now) > Self.renewalMargin {
                condition.unlock()
                return current.token
            }
            if let awaited, state.refreshes != awaited, let failure = state.lastFailure {
                condition.unlock()
                throw failure
            }
            guard state.refreshing else { break }
            if let current = state.current, current.expires.timeIntervalSince(now) > 30 {
                condition.unlock()
                return current.token
            }
            awaited = awaited ?? state.refreshes
            let until = Date().addingTimeInterval(ContinuousClock.now.duration(to: deadline) / .seconds(1))
            state.waiting += 1
            let woken = condition.wait(until: until)
            state.waiting -= 1
            guard woken || state.refreshes != awaited else {
                condition.unlock()
                throw GooglePlayFailure(.unavailable, "Google's login did not end in time", retryAfter: .seconds(5))
            }
        }
        state.refreshing = true
        condition.unlock()
        let outcome = Result { () throws(GooglePlayFailure) in try login(deadline: deadline, logger: logger) }
        condition.lock()
        state.refreshing = false
        state.refreshes += 1
        switch outcome {
        case .success(let token):
            state.current = token
            state.lastFailure = nil
        case .failure(let failure):
            state.lastFailure = failure
        }
        condition.broadcast()
        condition.unlock()
        return try outcome.get().token
    }

    /// How many callers wait for the refresh under way (a test holds a slow login until its waiters are in).
    var waitingForRefresh: Int {
        state.condition.lock()
        defer { state.condition.unlock() }
        return state.waiting
    }

    /// Google refused `token` (401): the next call logs in again, unless another has already.
    func forget(_ token: String) {
        state.condition.lock()
        if state.current?.token == token { state.current = nil }
        state.condition.unlock()
    }

    /// One login: an assertion exchanged for an access token.
    private func login(
        deadline: ContinuousClock.Instant, logger: Logger
    ) throws(GooglePlayFailure) -> (token: String, expires: Date) {
        let started = Date()
        let assertion = try Self.assertion(account, issuedAt: started)
        let form =
            "grant_type=" + Self.grantType.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            + "&assertion=" + assertion
        let body = try http.send(
            "token", what: "Google's token endpoint", deadline: deadline, logger: logger,
            make: { () throws(GooglePlayFailure) in
                do {
                    var request = try HTTPClient.Request(url: tokenURL, method: .POST, body: .string(form))
                    request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                    return request
                } catch {
                    throw GooglePlayFailure(.misconfigured, "google.token_url is not a URL this client can call")
                }
            },
            meaning: { status, body in
                status == 200 ? .success(body) : .failure(Self.refusal(status: status, body: body))
            })
        guard let answer = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let token = answer["access_token"] as? String, !token.isEmpty
        else {
            throw GooglePlayFailure(.unavailable, "Google's token endpoint answered without an access token")
        }
        let lifetime = (answer["expires_in"] as? NSNumber)?.doubleValue ?? 3600
        return (token, started.addingTimeInterval(min(max(lifetime, 0), 24 * 3600)))
    }

    /// Google's refusal of the login, in words an operator can act on (Google's `error` and description,
    /// which never carry the key or the assertion).
    private static func refusal(status: Int, body: [UInt8]) -> GooglePlayFailure {
        let answer = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        let words = [answer?["error"], answer?["error_description"]].compactMap { $0 as? String }
            .map { String($0.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(200)) }
        let said = words.isEmpty ? "" : " (\(words.joined(separator: ": ")))"
        return GooglePlayFailure(
            .misconfigured,
            "Google refused the service account's login with \(status)\(said): check google.service_account_key and that the account has access to the app in Play Console"
        )
    }

    /// The signed assertion for `account`, issued at `issuedAt`.
    static func assertion(_ account: GoogleServiceAccount, issuedAt: Date) throws(GooglePlayFailure) -> String {
        let issued = Date(timeIntervalSince1970: issuedAt.timeIntervalSince1970.rounded(.down))
        let claims = Claims(
            iss: IssuerClaim(value: account.clientEmail), scope: scope, aud: AudienceClaim(value: [audience]),
            iat: IssuedAtClaim(value: issued), exp: ExpirationClaim(value: issued.addingTimeInterval(assertionLifetime))
        )
        let key = account.key
        let kid = account.keyId.map { JWKIdentifier(string: $0) }
        do {
            return try AsyncBridge.wait { () async throws in
                let keys = JWTKeyCollection()
                await keys.add(rsa: key, digestAlgorithm: .sha256, kid: kid)
                return try await keys.sign(claims, kid: kid, header: ["typ": "JWT"])
            }
        } catch {
            throw GooglePlayFailure(.misconfigured, "the service account's key cannot sign: \(error)")
        }
    }

    /// The assertion's claims, as Google's server login wants them.
    struct Claims: JWTPayload {
        let iss: IssuerClaim
        let scope: String
        let aud: AudienceClaim
        let iat: IssuedAtClaim
        let exp: ExpirationClaim

        func verify(using algorithm: some JWTAlgorithm) throws {
            try exp.verifyNotExpired()
        }
    }

    /// The current token and the state of its refresh, guarded by `condition`.
    private final class Shared: @unchecked Sendable {
        let condition = NSCondition()
        var current: (token: String, expires: Date)?
        var refreshing = false
        /// Refreshes ended so far: a waiter knows the one it waited for has ended when this moves.
        var refreshes = 0
        var lastFailure: GooglePlayFailure?
        /// Callers waiting for the refresh under way.
        var waiting = 0
    }
}
