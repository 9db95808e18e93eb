/// An error with a defined HTTP answer: the `error` object of API.md plus the status and extra headers.
///
/// Handlers throw these; the error-rendering middleware turns them into responses. Any other error reaching
/// that middleware becomes a 500 `internal_error` and is logged.
public struct GatewayError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: String, Sendable, CaseIterable {
        case notFound = "not_found"
        case methodNotAllowed = "method_not_allowed"
        case bodyTooLarge = "body_too_large"
        case badRequest = "bad_request"
        case receiptRequired = "receipt_required"
        case notEntitled = "not_entitled"
        case timeout = "timeout"
        case internalError = "internal_error"
        case receiptInvalid = "receipt_invalid"
        case bundleMismatch = "bundle_mismatch"
        case sandboxNotAccepted = "sandbox_not_accepted"
        case signatureInvalid = "signature_invalid"
        case environmentNotAccepted = "environment_not_accepted"
        case upstreamMisconfigured = "upstream_misconfigured"
        case upstreamUnavailable = "upstream_unavailable"
        case tokenInvalid = "token_invalid"
        case unknownProduct = "unknown_product"
        case noContent = "no_content"
        case ledgerUnavailable = "ledger_unavailable"
        case rateLimited = "rate_limited"
    }

    private let code: Code

    /// Every code name of API.md's error table, for metrics that list them all from the start.
    static var allCodeNames: [String] { Code.allCases.map(\.rawValue) }
    /// The HTTP status this error is answered with.
    public let status: Int
    /// A sentence for the client; never contains secrets or receipt data.
    public let message: String
    /// Headers the answer must carry, such as `Allow` or `Retry-After`.
    public let headers: [Header]
    /// The App Store's status when Apple's verdict caused this error (`error.apple_status`).
    public let appleStatus: Int?

    /// A response header that belongs to an error answer.
    public struct Header: Sendable, Equatable {
        public let name: String
        public let value: String
    }

    private init(_ code: Code, status: Int, message: String, headers: [Header] = [], appleStatus: Int? = nil) {
        self.code = code
        self.status = status
        self.message = message
        self.headers = headers
        self.appleStatus = appleStatus
    }

    /// The `error.code` string of API.md.
    public var codeName: String { code.rawValue }

    public var description: String { "\(status) \(code.rawValue): \(message)" }

    public static let notFound = GatewayError(.notFound, status: 404, message: "No such route.")

    public static func methodNotAllowed(allowed: [HTTPMethod]) -> GatewayError {
        GatewayError(
            .methodNotAllowed,
            status: 405,
            message: "This route does not accept that method.",
            headers: [Header(name: "Allow", value: allowed.map(\.rawValue).joined(separator: ", "))]
        )
    }

    public static func bodyTooLarge(limit: Int) -> GatewayError {
        GatewayError(.bodyTooLarge, status: 413, message: "The request body is larger than \(limit) bytes.")
    }

    public static func badRequest(_ message: String) -> GatewayError {
        GatewayError(.badRequest, status: 400, message: message)
    }

    public static let receiptRequired = GatewayError(
        .receiptRequired,
        status: 401,
        message: "This route needs a receipt or a download token."
    )

    public static let notEntitled = GatewayError(
        .notEntitled,
        status: 403,
        message: "The receipt or token does not cover this product."
    )

    public static let timeout = GatewayError(
        .timeout,
        status: 504,
        message: "The request took longer than the server's time limit."
    )

    public static let internalError = GatewayError(
        .internalError,
        status: 500,
        message: "The server failed to answer this request."
    )

    /// 422: the App Store rejected the receipt (21002 after a retry, 21003, 21010, ...).
    public static func receiptInvalid(appleStatus: Int) -> GatewayError {
        GatewayError(
            .receiptInvalid,
            status: 422,
            message: "The App Store could not authenticate the receipt.",
            appleStatus: appleStatus
        )
    }

    public static let bundleMismatch = GatewayError(
        .bundleMismatch,
        status: 422,
        message: "The receipt belongs to another app."
    )

    /// A client over its route's request rate; it may try again after `retryAfterSeconds`.
    public static func rateLimited(retryAfterSeconds: Int) -> GatewayError {
        GatewayError(
            .rateLimited, status: 429, message: "Too many requests; try again later.",
            headers: [Header(name: "Retry-After", value: String(retryAfterSeconds))])
    }

    /// Signed data whose chain, OIDs or signature fail verification; `reason` names which (safe to show).
    public static func signatureInvalid(_ reason: String) -> GatewayError {
        GatewayError(.signatureInvalid, status: 422, message: "The signed data cannot be trusted: \(reason).")
    }

    /// Signed data for an environment (Sandbox, Xcode) this server does not accept; `reason` says which.
    public static func environmentNotAccepted(_ reason: String) -> GatewayError {
        GatewayError(.environmentNotAccepted, status: 422, message: "\(reason) by this server.")
    }

    public static let sandboxNotAccepted = GatewayError(
        .sandboxNotAccepted,
        status: 422,
        message: "Sandbox receipts are not accepted by this server."
    )

    /// 502: Apple refused the shared secret (21004); an operator must fix the config.
    public static let upstreamMisconfigured = GatewayError(
        .upstreamMisconfigured,
        status: 502,
        message: "The server's App Store credentials were rejected; the operator has been alerted.",
        appleStatus: 21004
    )

    /// 503: Apple could not give a verdict in time; the client should retry after `retryAfterSeconds`.
    public static func upstreamUnavailable(retryAfterSeconds: Int) -> GatewayError {
        GatewayError(
            .upstreamUnavailable,
            status: 503,
            message: "The App Store is not answering; try again later.",
            headers: [Header(name: "Retry-After", value: String(retryAfterSeconds))]
        )
    }

    public static let tokenInvalid = GatewayError(
        .tokenInvalid,
        status: 401,
        message: "The download token is invalid or has expired."
    )

    public static let unknownProduct = GatewayError(
        .unknownProduct,
        status: 404,
        message: "No such product in the catalog."
    )

    public static let noContent = GatewayError(
        .noContent,
        status: 404,
        message: "This product has no downloadable content."
    )

    /// 503: the purchase ledger cannot record right now; nothing was granted.
    public static func ledgerUnavailable(retryAfterSeconds: Int) -> GatewayError {
        GatewayError(
            .ledgerUnavailable,
            status: 503,
            message: "Purchases cannot be recorded right now; try again later.",
            headers: [Header(name: "Retry-After", value: String(retryAfterSeconds))]
        )
    }
}
