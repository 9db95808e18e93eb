/// An error with a defined HTTP answer: the `error` object of API.md plus the status and extra headers.
///
/// Handlers throw these; the error-rendering middleware turns them into responses. Any other error reaching
/// that middleware becomes a 500 `internal_error` and is logged.
public struct GatewayError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case notFound = "not_found"
        case methodNotAllowed = "method_not_allowed"
        case bodyTooLarge = "body_too_large"
        case badRequest = "bad_request"
        case receiptRequired = "receipt_required"
        case notEntitled = "not_entitled"
        case timeout = "timeout"
        case internalError = "internal_error"
    }

    private let code: Code
    /// The HTTP status this error is answered with.
    public let status: Int
    /// A sentence for the client; never contains secrets or receipt data.
    public let message: String
    /// Headers the answer must carry, such as `Allow` or `Retry-After`.
    public let headers: [Header]

    /// A response header that belongs to an error answer.
    public struct Header: Sendable, Equatable {
        public let name: String
        public let value: String
    }

    private init(_ code: Code, status: Int, message: String, headers: [Header] = []) {
        self.code = code
        self.status = status
        self.message = message
        self.headers = headers
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
}
