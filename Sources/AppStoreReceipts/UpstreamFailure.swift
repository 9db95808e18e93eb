import GatewayHandlerAPI

/// Why the App Store gave no usable verdict.
enum UpstreamFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Apple's definitive no, with its status.
    case rejected(status: Int)
    /// 21004: the shared secret was refused.
    case misconfigured
    /// No verdict before the deadline (network, 5xx, 21005, 21009, retryable 211xx, garbage).
    case unavailable(reason: String)

    /// Seconds a client should wait before retrying after an outage.
    static let retryAfterSeconds = 5

    var description: String {
        switch self {
        case .rejected(let status): return "the App Store rejected the receipt with status \(status)"
        case .misconfigured: return "the App Store refused the shared secret (21004)"
        case .unavailable(let reason): return reason
        }
    }

    var gatewayError: GatewayError {
        switch self {
        case .rejected(let status): return .receiptInvalid(appleStatus: status)
        case .misconfigured: return .upstreamMisconfigured
        case .unavailable: return .upstreamUnavailable(retryAfterSeconds: Self.retryAfterSeconds)
        }
    }
}
