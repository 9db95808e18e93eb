import GatewayHandlerAPI

extension ErrorCode {
    static let receiptInvalid = ErrorCode("receipt_invalid")
    static let bundleMismatch = ErrorCode("bundle_mismatch")
    static let sandboxNotAccepted = ErrorCode("sandbox_not_accepted")
    static let signatureInvalid = ErrorCode("signature_invalid")
    static let environmentNotAccepted = ErrorCode("environment_not_accepted")
    static let upstreamMisconfigured = ErrorCode("upstream_misconfigured")
    static let upstreamUnavailable = ErrorCode("upstream_unavailable")
    static let transactionNotFound = ErrorCode("transaction_not_found")

    /// The codes the App Store module answers.
    static let appStore: [ErrorCode] = [
        .receiptInvalid, .bundleMismatch, .sandboxNotAccepted, .signatureInvalid, .environmentNotAccepted,
        .upstreamMisconfigured, .upstreamUnavailable, .transactionNotFound,
    ]
}

extension GatewayError {
    /// 422: the App Store rejected the receipt (21002 after a retry, 21003, 21010, ...); `error.apple_status`.
    package static func receiptInvalid(appleStatus: Int) -> GatewayError {
        GatewayError(
            ErrorCode.receiptInvalid,
            status: 422,
            message: "The App Store could not authenticate the receipt.",
            details: [Detail(name: "apple_status", value: appleStatus)]
        )
    }

    /// The App Store's status when Apple's verdict caused this error (`error.apple_status`).
    package var appleStatus: Int? { detail("apple_status") }

    package static let bundleMismatch = GatewayError(
        ErrorCode.bundleMismatch,
        status: 422,
        message: "The receipt belongs to another app."
    )

    /// Signed data whose chain, OIDs or signature fail verification; `reason` names which (safe to show).
    package static func signatureInvalid(_ reason: String) -> GatewayError {
        GatewayError(ErrorCode.signatureInvalid, status: 422, message: "The signed data cannot be trusted: \(reason).")
    }

    /// Signed data for an environment (Sandbox, Xcode) this server does not accept; `reason` says which.
    package static func environmentNotAccepted(_ reason: String) -> GatewayError {
        GatewayError(ErrorCode.environmentNotAccepted, status: 422, message: "\(reason) by this server.")
    }

    package static let sandboxNotAccepted = GatewayError(
        ErrorCode.sandboxNotAccepted,
        status: 422,
        message: "Sandbox receipts are not accepted by this server."
    )

    /// 502: Apple refused the shared secret (21004); an operator must fix the config.
    package static let upstreamMisconfigured = GatewayError(
        ErrorCode.upstreamMisconfigured,
        status: 502,
        message: "The server's App Store credentials were rejected; the operator has been alerted.",
        details: [Detail(name: "apple_status", value: 21004)]
    )

    /// 503: Apple could not give a verdict in time; the client should retry after `retryAfterSeconds`.
    package static func upstreamUnavailable(retryAfterSeconds: Int) -> GatewayError {
        GatewayError(
            ErrorCode.upstreamUnavailable,
            status: 503,
            message: "The App Store is not answering; try again later.",
            headers: [retryAfter(seconds: retryAfterSeconds)]
        )
    }

    /// 422: the App Store Server API knows no such transaction in any accepted environment.
    package static let transactionNotFound = GatewayError(
        ErrorCode.transactionNotFound,
        status: 422,
        message: "The App Store knows no such transaction."
    )

    /// 502: Apple refused the gateway's App Store Server API token (401); an operator must fix the key.
    package static let serverAPIMisconfigured = GatewayError(
        ErrorCode.upstreamMisconfigured,
        status: 502,
        message: "The server's App Store credentials were rejected; the operator has been alerted."
    )
}
