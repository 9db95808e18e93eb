/// What to do with a verifyReceipt status (docs/ARCHITECTURE.md 6). Pure, so every status is unit-tested.
package enum ReceiptStatusPolicy {
    /// The next step for one answer.
    package enum Action: Sendable, Equatable {
        /// 0, or 21006 (valid; an iOS 6 subscription that has expired).
        case accept
        /// 21007: a sandbox receipt sent to production.
        case switchToSandbox
        /// 21008: a production receipt sent to sandbox.
        case switchToProduction
        /// 21002: Apple could not read the data; worth one more try.
        case retryOnce
        /// 21005, 21009, retryable 211xx: Apple's trouble; retry with backoff.
        case retryWithBackoff
        /// 21004: the shared secret is wrong; an operator must act.
        case misconfigured
        /// Any other status: Apple's definitive no.
        case reject
    }

    package static func action(status: Int, isRetryable: Bool) -> Action {
        switch status {
        case 0, 21006: return .accept
        case 21007: return .switchToSandbox
        case 21008: return .switchToProduction
        case 21002: return .retryOnce
        case 21004: return .misconfigured
        case 21005, 21009: return .retryWithBackoff
        case 21100...21199: return isRetryable ? .retryWithBackoff : .reject
        default: return .reject
        }
    }
}
