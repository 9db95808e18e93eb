import GatewayHandlerAPI
import GooglePlayAPI

extension ErrorCode {
    static let bundleMismatch = ErrorCode("bundle_mismatch")
    static let sandboxNotAccepted = ErrorCode("sandbox_not_accepted")
    static let purchasePending = ErrorCode("purchase_pending")
    static let purchaseNotFound = ErrorCode("purchase_not_found")
    static let upstreamMisconfigured = ErrorCode("upstream_misconfigured")
    static let upstreamUnavailable = ErrorCode("upstream_unavailable")
    static let pushRefused = ErrorCode("push_refused")

    /// The codes the Google Play module answers.
    static let googlePlay: [ErrorCode] = [
        .bundleMismatch, .sandboxNotAccepted, .purchasePending, .purchaseNotFound, .upstreamMisconfigured,
        .upstreamUnavailable, .pushRefused,
    ]
}

extension GatewayError {
    static let googleBundleMismatch = GatewayError(
        ErrorCode.bundleMismatch, status: 422, message: "The purchase belongs to another app.")

    static let googleSandboxNotAccepted = GatewayError(
        ErrorCode.sandboxNotAccepted, status: 422, message: "Test purchases are not accepted by this server.")

    /// 402: Google Play has not been paid yet (a pending purchase: cash, a bank transfer); the content is
    /// delivered once it is.
    static let purchasePending = GatewayError(
        ErrorCode.purchasePending, status: 402,
        message: "The purchase is waiting for payment; its content is delivered once Google Play confirms it.")

    /// 422: Google Play knows no such purchase token for the app.
    static let purchaseNotFound = GatewayError(
        ErrorCode.purchaseNotFound, status: 422, message: "Google Play knows no such purchase.")

    /// 422: Google Play says the purchase token is no longer valid (410): the purchase is over, and recorded so.
    static let purchaseNoLongerValid = GatewayError(
        ErrorCode.purchaseNotFound, status: 422, message: "Google Play says this purchase is no longer valid.")

    /// 403: a Pub/Sub push without Pub/Sub's OIDC token for `google.notifications` (the log says what is wrong);
    /// nothing is recorded.
    static let googlePushRefused = GatewayError(
        ErrorCode.pushRefused, status: 403,
        message: "The push is not authenticated as the configured Google Cloud Pub/Sub subscription.")

    static let googleMisconfigured = GatewayError(
        ErrorCode.upstreamMisconfigured, status: 502,
        message: "The server's Google Play credentials were rejected; the operator has been alerted.")

    static func googleUnavailable(retryAfterSeconds: Int) -> GatewayError {
        GatewayError(
            ErrorCode.upstreamUnavailable, status: 503, message: "Google Play is not answering; try again later.",
            headers: [retryAfter(seconds: retryAfterSeconds)])
    }

    /// The answer to a request whose call to Google failed so (a 410 is a purchase, not a failure).
    static func google(_ failure: GooglePlayFailure) -> GatewayError {
        switch failure.kind {
        case .notFound: .purchaseNotFound
        case .gone: .purchaseNoLongerValid
        case .misconfigured: .googleMisconfigured
        case .rejected: .badRequest("Google Play refused the purchase token: \(failure.reason).")
        case .rateLimited, .unavailable:
            .googleUnavailable(retryAfterSeconds: max(1, Int((failure.retryAfter ?? .seconds(5)) / .seconds(1))))
        }
    }
}
