/// Why a call to Google (its token endpoint, the Play Developer API) gave no usable answer.
package struct GooglePlayFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of trouble, for the caller to answer by.
    package enum Kind: String, Sendable {
        /// Google refused the service account (401/403, `invalid_grant`), or its key cannot be used: an
        /// operator must act.
        case misconfigured
        /// Google knows no such purchase token (404 `purchaseTokenNotFound`).
        case notFound
        /// The token was valid once and is no more (410 `purchaseTokenNoLongerValid`).
        case gone
        /// Google refused the request itself (400).
        case rejected
        /// Google's 429, or the gateway's own per-minute budget, spent.
        case rateLimited
        /// No answer before the deadline or the last attempt (5xx, timeouts, resets, garbage).
        case unavailable
    }

    package let kind: Kind
    /// What went wrong, safe to log: never a token, an assertion or a key.
    package let reason: String
    /// When the caller may try again (rate limits and outages).
    package let retryAfter: Duration?

    package init(_ kind: Kind, _ reason: String, retryAfter: Duration? = nil) {
        self.kind = kind
        self.reason = reason
        self.retryAfter = retryAfter
    }

    package var description: String { "\(kind.rawValue): \(reason)" }
}
