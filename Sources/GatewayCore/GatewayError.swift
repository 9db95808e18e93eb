/// An error with a defined HTTP answer: the `error` object of API.md plus the status and extra headers.
///
/// Handlers throw these; the error-rendering middleware turns them into responses. Any other error reaching
/// that middleware becomes a 500 `internal_error` and is logged. GatewayCore makes the answers every route
/// can give; modules make their own with ``init(_:status:message:headers:details:)`` and their own codes.
public struct GatewayError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: ErrorCode
    /// The HTTP status this error is answered with.
    public let status: Int
    /// A sentence for the client; never contains secrets or receipt data.
    public let message: String
    /// Headers the answer must carry, such as `Allow` or `Retry-After`.
    public let headers: [Header]
    /// Further members of the `error` object, such as the App Store's `apple_status`.
    public let details: [Detail]

    /// A response header that belongs to an error answer.
    public struct Header: Sendable, Equatable {
        public let name: String
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// An integer member of the `error` object beside `code` and `message`.
    public struct Detail: Sendable, Equatable {
        public let name: String
        public let value: Int

        public init(name: String, value: Int) {
            self.name = name
            self.value = value
        }
    }

    public init(_ code: ErrorCode, status: Int, message: String, headers: [Header] = [], details: [Detail] = []) {
        self.code = code
        self.status = status
        self.message = message
        self.headers = headers
        self.details = details
    }

    /// The `error.code` string of API.md.
    public var codeName: String { code.name }

    /// The value of the detail `name`, if the error has it.
    public func detail(_ name: String) -> Int? { details.first { $0.name == name }?.value }

    public var description: String { "\(status) \(code.name): \(message)" }

    /// A `Retry-After` header for answers the client may try again later.
    public static func retryAfter(seconds: Int) -> Header { Header(name: "Retry-After", value: String(seconds)) }

    public static let notFound = GatewayError(ErrorCode.notFound, status: 404, message: "No such route.")

    public static func methodNotAllowed(allowed: [HTTPMethod]) -> GatewayError {
        GatewayError(
            ErrorCode.methodNotAllowed,
            status: 405,
            message: "This route does not accept that method.",
            headers: [Header(name: "Allow", value: allowed.map(\.rawValue).joined(separator: ", "))]
        )
    }

    public static func bodyTooLarge(limit: Int) -> GatewayError {
        GatewayError(ErrorCode.bodyTooLarge, status: 413, message: "The request body is larger than \(limit) bytes.")
    }

    public static func badRequest(_ message: String) -> GatewayError {
        GatewayError(ErrorCode.badRequest, status: 400, message: message)
    }

    public static let timeout = GatewayError(
        ErrorCode.timeout,
        status: 504,
        message: "The request took longer than the server's time limit."
    )

    public static let internalError = GatewayError(
        ErrorCode.internalError,
        status: 500,
        message: "The server failed to answer this request."
    )

    /// A client over its route's request rate; it may try again after `retryAfterSeconds`.
    public static func rateLimited(retryAfterSeconds: Int) -> GatewayError {
        GatewayError(
            ErrorCode.rateLimited, status: 429, message: "Too many requests; try again later.",
            headers: [retryAfter(seconds: retryAfterSeconds)])
    }
}
