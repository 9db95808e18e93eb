import AsyncHTTPClient
import ByteCoding
import CoreMetrics
import Foundation
import GatewayConcurrency
import JWTKit
import Logging
import NIOHTTP1
import Synchronization

/// Checks the OIDC token Google Cloud Pub/Sub puts on each push (`Authorization: Bearer <JWT>`): RS256 under one
/// of Google's published keys, issued by accounts.google.com, for the push subscription's audience and service
/// account (`email`, verified), not expired. Through jwt-kit, as the login's assertion is signed.
///
/// The keys come from a JWKS file, or from a URL (Google's, by default), fetched when first needed and again
/// when a token names a key the set lacks (Google rotates them), at most once a minute so that tokens naming
/// made-up keys cannot make the gateway call Google for each.
package final class GooglePushAuthenticator: Sendable {
    /// Where the keys come from.
    package enum KeySource: Sendable {
        /// A JWKS document, read once (`jwks_file`).
        case document([UInt8])
        /// A JWKS URL, fetched (`jwks_url`).
        case url(String)
    }

    private struct Known {
        var keys: JWTKeyCollection?
        var kids: Set<String> = []
        var fetchedAt: ContinuousClock.Instant?
    }

    private static let refetchPause: Duration = .seconds(60)
    private static let keysLifetime: Duration = .seconds(86_400)

    private let audience: String
    private let email: String
    private let source: KeySource
    private let http: GoogleHTTP
    private let known = Mutex(Known())

    /// - Parameters:
    ///   - audience: the push subscription's audience, which Pub/Sub puts in `aud`.
    ///   - email: the service account the push subscription authenticates as.
    package init(
        audience: String, email: String, keys: KeySource, callTimeout: Duration, metricsFactory: any MetricsFactory
    ) {
        self.audience = audience
        self.email = email
        source = keys
        http = GoogleHTTP(
            callTimeout: callTimeout, maxAttempts: 2, metrics: GooglePlayMetrics(factory: metricsFactory))
    }

    /// Checks the `Authorization` header of a push; throws `.rejected` with what is wrong (in words safe to
    /// log: never the token), or `.unavailable` when Google's keys cannot be had now.
    package func check(
        authorization: String?, deadline: ContinuousClock.Instant, logger: Logger
    ) throws(GooglePlayFailure) {
        guard let authorization, authorization.count > 7,
            authorization.prefix(7).lowercased() == "bearer "
        else {
            throw Self.refused("the push carries no bearer token (configure the push subscription's authentication)")
        }
        let token = String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        let (algorithm, kid) = try Self.header(of: token)
        guard algorithm == "RS256" else { throw Self.refused("the token is signed with \(algorithm), not RS256") }
        let keys = try collection(naming: kid, deadline: deadline, logger: logger)
        guard known.withLock({ $0.kids.contains(kid) }) else {
            throw Self.refused("the token names a key Google does not publish")
        }
        let claims: GoogleIdentityToken
        do {
            claims = try AsyncBridge.wait { () async throws in
                try await keys.verify(token, as: GoogleIdentityToken.self, expectedAudience: self.audience)
            }
        } catch {
            throw Self.refused("the token does not verify: \(Self.words(error))")
        }
        guard claims.email == email else {
            throw Self.refused("the token is not the configured service account's (google.notifications.email)")
        }
        guard claims.emailVerified?.value == true else { throw Self.refused("the token's email is not verified") }
    }

    /// The keys, holding `kid`: the ones known, or fetched again when they lack it and the last fetch was over
    /// a minute ago, or when they are a day old (a key Google withdrew stops counting; if Google cannot be reached
    /// then, the keys held are used).
    private func collection(
        naming kid: String, deadline: ContinuousClock.Instant, logger: Logger
    ) throws(GooglePlayFailure) -> JWTKeyCollection {
        let (current, fetch) = known.withLock { known -> (JWTKeyCollection?, Bool) in
            let age = known.fetchedAt.map { $0.duration(to: .now) }
            if let keys = known.keys, known.kids.contains(kid) {
                guard let age, age >= Self.keysLifetime else { return (keys, false) }
                known.fetchedAt = .now
                return (keys, true)
            }
            let due = age.map { $0 >= Self.refetchPause } ?? true
            if due { known.fetchedAt = .now }
            return (nil, due)
        }
        if let current, !fetch { return current }
        guard fetch else {
            // A key Google may have just started signing with: Pub/Sub delivers the push again after the pause.
            throw GooglePlayFailure(
                .unavailable,
                "the token names a key Google's push keys lacked, or could not be had, a moment ago",
                retryAfter: Self.refetchPause)
        }
        do {
            let (keys, kids) = try Self.keys(fetchDocument(deadline: deadline, logger: logger))
            known.withLock { known in
                known.keys = keys
                known.kids = kids
            }
            return keys
        } catch {
            guard let current else { throw error }
            logger.warning(
                "Google's push keys could not be fetched again; the ones fetched a day ago are used",
                metadata: ["reason": "\(error.reason)"])
            return current
        }
    }

    /// The JWKS document: the file's, or fetched from the URL now.
    private func fetchDocument(deadline: ContinuousClock.Instant, logger: Logger) throws(GooglePlayFailure)
        -> [UInt8]
    {
        switch source {
        case .document(let bytes): return bytes
        case .url(let url):
            return try http.send(
                "push_keys", what: "Google's push keys", deadline: deadline, logger: logger,
                make: { () throws(GooglePlayFailure) in
                    do {
                        return try HTTPClient.Request(url: url, method: .GET)
                    } catch {
                        throw GooglePlayFailure(.misconfigured, "google.notifications.jwks_url is not a URL")
                    }
                },
                meaning: { status, body in
                    (200..<300).contains(status)
                        ? .success(body)
                        : .failure(GooglePlayFailure(.unavailable, "Google's push keys answered \(status)"))
                })
        }
    }

    /// The RS256 keys of the JWKS `document` as jwt-kit's keys, and their ids. Each key is read on its own (one
    /// of a kind jwt-kit does not know leaves the others usable), and each is pinned to RS256, so that no
    /// token's header can make jwt-kit build it another algorithm's signer.
    private static func keys(_ document: [UInt8]) throws(GooglePlayFailure) -> (JWTKeyCollection, Set<String>) {
        guard
            let listed = (try? JSONSerialization.jsonObject(with: Data(document)) as? [String: Any])?["keys"]
                as? [Any]
        else { throw GooglePlayFailure(.unavailable, "Google's push keys are not a JWKS document") }
        let keys = JWTKeyCollection()
        var kids: Set<String> = []
        for entry in listed {
            guard let data = try? JSONSerialization.data(withJSONObject: entry),
                var jwk = try? JSONDecoder().decode(JWK.self, from: data), jwk.keyType == .rsa,
                jwk.algorithm == nil || jwk.algorithm == .rs256, let kid = jwk.keyIdentifier
            else { continue }
            jwk.algorithm = .rs256
            let pinned = jwk
            do {
                try AsyncBridge.wait { () async throws in _ = try await keys.add(jwk: pinned) }
                kids.insert(kid.string)
            } catch {
                continue
            }
        }
        return (keys, kids)
    }

    /// The `alg` and `kid` of a JWT's header.
    private static func header(of token: String) throws(GooglePlayFailure) -> (String, String) {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(parts[0]),
            let header = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        else { throw refused("the bearer token is not a JWT") }
        guard let algorithm = header["alg"] as? String, let kid = header["kid"] as? String else {
            throw refused("the token's header names no algorithm or key")
        }
        return (String(algorithm.prefix(20)), kid)
    }

    private static func refused(_ reason: String) -> GooglePlayFailure { GooglePlayFailure(.rejected, reason) }

    /// jwt-kit's error in a few words, without the token.
    private static func words(_ error: any Error) -> String {
        String(String(describing: error).prefix(160))
    }
}
