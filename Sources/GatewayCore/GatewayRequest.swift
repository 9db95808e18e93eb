/// One HTTP request as the gateway sees it, independent of the transport (FastCGI or CGI) that carried it.
///
/// Headers are kept under their CGI names (`HTTP_IF_NONE_MATCH`), as web servers pass them; use
/// ``header(_:)`` with the ordinary header name.
public struct GatewayRequest: Sendable {
    /// What became of the request body while the transport read it.
    public enum Body: Sendable, Equatable {
        /// The whole body, exactly `CONTENT_LENGTH` bytes (empty when there was none).
        case complete([UInt8])
        /// The declared length exceeded `server.max_body_bytes`; the bytes were discarded unread into memory.
        case tooLarge(declaredLength: Int)
        /// The stream ended before `CONTENT_LENGTH` bytes arrived, or `CONTENT_LENGTH` was not a number.
        case malformed(String)
    }

    public var method: HTTPMethod
    /// The path used for routing: `PATH_INFO` when non-empty, else the path part of `REQUEST_URI`. Not decoded.
    public var path: String
    /// The query string without the leading `?`, possibly empty.
    public var query: String
    /// Every `HTTP_*` parameter (and `CONTENT_TYPE`, as `HTTP_CONTENT_TYPE`).
    public var headers: RequestHeaders
    public var body: Body
    /// The client's address as the web server saw it (`REMOTE_ADDR`), if given.
    public var remoteAddress: String?
    /// The app account the web server vouches for (`STOREGATE_ACCOUNT`, a parameter only the web server can
    /// set: a client's headers arrive as `HTTP_*`), if it passed one. Only the transport sets it: a handler
    /// cannot make a request that speaks for an account.
    public var webServerAccount: String? { account }
    @usableFromInline package var account: String?

    /// A request with `headers` as `(CGI name, value)` pairs, such as `("HTTP_IF_NONE_MATCH", "\"v1\"")`.
    public init(
        method: HTTPMethod, path: String, query: String = "", headers: [(name: String, value: String)],
        body: Body = .complete([]), remoteAddress: String? = nil
    ) {
        self.init(
            method: method, path: path, query: query, headers: RequestHeaders(headers), body: body,
            remoteAddress: remoteAddress, webServerAccount: nil)
    }

    public init(
        method: HTTPMethod, path: String, query: String = "", headers: RequestHeaders = RequestHeaders(),
        body: Body = .complete([]), remoteAddress: String? = nil
    ) {
        self.init(
            method: method, path: path, query: query, headers: headers, body: body, remoteAddress: remoteAddress,
            webServerAccount: nil)
    }

    /// A request as the transport decoded it, with the account the web server vouches for. Inlinable, as the
    /// public initialiser was before it became `package` (a call per request otherwise).
    @inlinable package init(
        method: HTTPMethod,
        path: String,
        query: String = "",
        headers: RequestHeaders = RequestHeaders(),
        body: Body = .complete([]),
        remoteAddress: String? = nil,
        webServerAccount: String?
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        account = webServerAccount
    }

    /// The value of a request header, looked up by its HTTP name (`If-None-Match`), case-insensitively.
    public func header(_ name: String) -> String? { headers.value(named: name) }
}
