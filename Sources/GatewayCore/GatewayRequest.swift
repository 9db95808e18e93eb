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
    /// `(CGI name, value)` pairs for every `HTTP_*` parameter.
    public var headers: [(name: String, value: String)]
    public var body: Body
    /// The client's address as the web server saw it (`REMOTE_ADDR`), if given.
    public var remoteAddress: String?

    public init(
        method: HTTPMethod,
        path: String,
        query: String = "",
        headers: [(name: String, value: String)] = [],
        body: Body = .complete([]),
        remoteAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The value of a request header, looked up by its HTTP name (`If-None-Match`), case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { Self.isCGIName($0.name, of: name) }?.value
    }

    /// Whether `cgiName` (`HTTP_IF_NONE_MATCH`) is the CGI form of header `name` (`If-None-Match`).
    /// Compares bytes in place: this runs for every header lookup of every request.
    static func isCGIName(_ cgiName: String, of name: String) -> Bool {
        guard cgiName.utf8.count == name.utf8.count + 5 else { return false }
        var cgiName = cgiName
        var name = name
        return cgiName.withUTF8 { cgi in
            name.withUTF8 { header in
                guard cgi[0] == UInt8(ascii: "H"), cgi[1] == UInt8(ascii: "T"), cgi[2] == UInt8(ascii: "T"),
                    cgi[3] == UInt8(ascii: "P"), cgi[4] == UInt8(ascii: "_")
                else { return false }
                for index in 0..<header.count {
                    let byte = header[index]
                    let expected: UInt8 =
                        switch byte {
                        case UInt8(ascii: "-"): UInt8(ascii: "_")
                        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - 32
                        default: byte
                        }
                    if cgi[index + 5] != expected { return false }
                }
                return true
            }
        }
    }
}
