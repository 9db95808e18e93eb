import Foundation
import GatewayConcurrency
import JWTKit
import Synchronization

/// The bearer tokens for the App Store Server API: ES256 JWTs per Apple's rules (header `alg`, `kid`,
/// `typ: JWT`; claims `iss`, `iat`, `exp`, `aud: appstoreconnect-v1`, `bid`), signed by jwt-kit, the project's
/// one JWT library. Apple refuses a token that lives longer than an hour; one token serves every call until
/// `renewalMargin` before it expires, so a busy gateway signs about twice an hour.
final class ServerAPITokens: Sendable {
    static let audience = "appstoreconnect-v1"
    /// Below Apple's 60-minute ceiling, with room for clocks that disagree by a few minutes.
    static let lifetime: TimeInterval = 30 * 60
    /// Longer than any call, so a token never expires while a call carries it.
    static let renewalMargin: TimeInterval = 5 * 60

    private let credentials: ServerAPICredentials
    private let current = Mutex<(token: String, expires: Date)?>(nil)

    init(credentials: ServerAPICredentials) {
        self.credentials = credentials
    }

    /// The token to send at `now`: the current one, or a new one when it is about to expire.
    func token(now: Date = Date()) throws(ServerAPIFailure) -> String {
        try current.withLock { current throws(ServerAPIFailure) in
            if let current, current.expires.timeIntervalSince(now) > Self.renewalMargin { return current.token }
            let made = try Self.make(credentials, issuedAt: now)
            current = (made, now.addingTimeInterval(Self.lifetime))
            return made
        }
    }

    /// A JWT for `credentials`, issued at `issuedAt` and valid for `lifetime`. Signing fails only for a key
    /// that cannot sign, which the credentials found out when the config was loaded.
    static func make(_ credentials: ServerAPICredentials, issuedAt: Date) throws(ServerAPIFailure) -> String {
        let issued = Date(timeIntervalSince1970: issuedAt.timeIntervalSince1970.rounded(.down))
        let claims = Claims(
            iss: IssuerClaim(value: credentials.issuerId), iat: IssuedAtClaim(value: issued),
            exp: ExpirationClaim(value: issued.addingTimeInterval(lifetime)), aud: AudienceClaim(value: [audience]),
            bid: credentials.bundleId)
        return try credentials.signed(claims)
    }

    /// Apple's claims. `aud` is a single string, as Apple's examples send it.
    struct Claims: JWTPayload {
        let iss: IssuerClaim
        let iat: IssuedAtClaim
        let exp: ExpirationClaim
        let aud: AudienceClaim
        let bid: String

        func verify(using algorithm: some JWTAlgorithm) throws {
            try exp.verifyNotExpired()
        }
    }
}
