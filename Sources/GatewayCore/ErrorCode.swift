/// The `error.code` string of an error answer. GatewayCore declares the codes every route can answer; each
/// module declares its own (`receipt_invalid` belongs to the App Store module) and lists them in
/// ``GatewayMetrics/declare(_:)`` so their counters exist before the first error.
public struct ErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The code as clients see it, such as `not_found`.
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public var description: String { name }

    public static let notFound = ErrorCode("not_found")
    public static let methodNotAllowed = ErrorCode("method_not_allowed")
    public static let bodyTooLarge = ErrorCode("body_too_large")
    public static let badRequest = ErrorCode("bad_request")
    public static let timeout = ErrorCode("timeout")
    public static let rateLimited = ErrorCode("rate_limited")
    public static let internalError = ErrorCode("internal_error")

    /// The codes any route can answer, whatever modules a build carries.
    package static let core: [ErrorCode] = [
        .notFound, .methodNotAllowed, .bodyTooLarge, .badRequest, .timeout, .rateLimited, .internalError,
    ]
}
