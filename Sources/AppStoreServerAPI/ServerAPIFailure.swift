/// Why a call to the App Store Server API gave no usable answer.
package struct ServerAPIFailure: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case misconfigured, notFound, rejected, rateLimited, unavailable, untrustedAnswer
    }

    private let code: Code
    /// What went wrong, safe to log: never a token or key.
    package let reason: String
    /// Apple's `errorCode`, when its answer carried one.
    package let appleErrorCode: Int?
    /// When the caller may try again (rate limits and outages).
    package let retryAfter: Duration?

    private init(_ code: Code, _ reason: String, appleErrorCode: Int? = nil, retryAfter: Duration? = nil) {
        self.code = code
        self.reason = reason
        self.appleErrorCode = appleErrorCode
        self.retryAfter = retryAfter
    }

    /// Apple refused the credentials (401), or the key cannot be read: an operator must act.
    package static func misconfigured(_ reason: String) -> Self { Self(.misconfigured, reason) }
    /// Apple knows no such transaction or order in this environment (404).
    package static func notFound(_ reason: String, appleErrorCode: Int?) -> Self {
        Self(.notFound, reason, appleErrorCode: appleErrorCode)
    }
    /// Apple refused the request itself (400: an invalid id, a consumption answer it will not take).
    package static func rejected(_ reason: String, appleErrorCode: Int?) -> Self {
        Self(.rejected, reason, appleErrorCode: appleErrorCode)
    }
    /// Apple's 429, or the gateway's own hourly budget for the endpoint, spent.
    package static func rateLimited(_ reason: String, retryAfter: Duration) -> Self {
        Self(.rateLimited, reason, retryAfter: retryAfter)
    }
    /// No answer before the deadline or the last attempt (5xx, timeouts, resets, garbage).
    package static func unavailable(_ reason: String, retryAfter: Duration) -> Self {
        Self(.unavailable, reason, retryAfter: retryAfter)
    }
    /// Apple's answer held signed data that failed verification.
    package static func untrustedAnswer(_ reason: String) -> Self { Self(.untrustedAnswer, reason) }

    package var isMisconfigured: Bool { code == .misconfigured }
    package var isNotFound: Bool { code == .notFound }
    package var isRejected: Bool { code == .rejected }
    package var isRateLimited: Bool { code == .rateLimited }
    package var isUnavailable: Bool { code == .unavailable }
    package var isUntrustedAnswer: Bool { code == .untrustedAnswer }

    package var description: String { "\(code.rawValue): \(reason)" }
}
