import Logging

/// What a handler answers. The transport decides how the bytes move; handlers never touch the socket.
public struct GatewayResponse: Sendable {
    public var status: Int
    /// Response headers in the order they are sent. `Content-Length` is added by the transport.
    public var headers: ResponseHeaders
    public var body: [UInt8]
    /// Purchased content sent instead of `body`: made only by the content path, from an entitlement.
    package var delivery: ContentDelivery?
    /// Facts for the request's log line that the client never sees, such as `environment` and `product`.
    public var logMetadata: Logger.Metadata = [:]
    /// The `error.code` of an error answer, counted when the request is finished. Set where a thrown
    /// ``GatewayError`` becomes the answer, and only there: a handler's 200 does not count as the gateway's error.
    public var errorCode: ErrorCode? { countedErrorCode }
    /// Stored apart from its public getter: a `package(set)` stored property's key path casts to a writable one
    /// in a handler module, a get-only computed property's does not.
    package var countedErrorCode: ErrorCode?

    public init(status: Int, headers: ResponseHeaders = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body's length in bytes, whichever form it has.
    public var contentLength: Int { delivery?.file?.length ?? body.count }

    /// A JSON response; `body` must already be encoded JSON.
    public static func json(status: Int = 200, _ body: [UInt8], headers: ResponseHeaders = []) -> GatewayResponse {
        GatewayResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: body)
    }

    /// The value of the first header with this name, compared case-insensitively.
    public func header(_ name: String) -> String? { headers.value(named: name) }
}
