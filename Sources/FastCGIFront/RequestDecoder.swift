import GatewayCore

#if canImport(Glibc)
    import Glibc
#endif

/// Builds a ``GatewayRequest`` from CGI-style parameters: FastCGI's params, or the environment in CGI mode.
/// Both arrive as a NULL-terminated array of `NAME=value` C strings.
enum RequestDecoder {
    /// What the parameters say, before the body is read: the request's parts (its path is `PATH_INFO` when
    /// non-empty, else the path of `REQUEST_URI`), and how to read its body (`headersTooLarge`: the HTTP
    /// headers passed exceed ``maximumHeaderBytes``, so the request is refused). Parts rather than a
    /// request, so the request is built once, with its body, instead of copied to add it.
    struct Head {
        var method = HTTPMethod.get
        var path = ""
        var query = ""
        var headers = RequestHeaders()
        var remoteAddress: String?
        var contentLength: String?
        var headersTooLarge = false

        /// The request these parts make, with `body`.
        consuming func request(body: GatewayRequest.Body = .complete([])) -> GatewayRequest {
            GatewayRequest(
                method: method, path: path, query: query, headers: headers, body: body, remoteAddress: remoteAddress)
        }
    }

    /// The request `parameters` describe, with its body read through `read` (see ``body(declaredLength:headersTooLarge:limit:read:)``).
    static func request(
        from parameters: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, bodyLimit: Int,
        read: (UnsafeMutableRawBufferPointer) -> Int
    ) -> GatewayRequest {
        let head = head(from: parameters)
        let body = body(
            declaredLength: head.contentLength, headersTooLarge: head.headersTooLarge, limit: bodyLimit, read: read)
        return (consume head).request(body: body)
    }

    /// More header bytes than any client of this API sends (nginx itself stops at 32 KiB by default); a web
    /// server that passes more is refused rather than believed.
    static let maximumHeaderBytes = 64 * 1024

    /// Reads `parameters`, turning into Swift values only the ones a request needs: this runs for every
    /// request, and web servers pass dozens. A name is recognised by its first byte and then compared whole,
    /// so the parameters no request uses cost a byte compare each.
    static func head(from parameters: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Head {
        var head = Head()
        var uriPath = ""
        var pathInfo = ""
        var contentType: UnsafeMutablePointer<CChar>?
        var headerBytes = 0
        var entryBytes = 0
        var cursor = parameters
        while let entry = cursor.pointee {
            cursor += 1
            switch UInt8(bitPattern: entry.pointee) {
            case UInt8(ascii: "H"):
                guard let (name, value) = header(at: entry) else { continue }
                headerBytes += name.count + value.count
                entryBytes += RequestHeaders.entryByteCount(name: name.count, value: value.count)
            case UInt8(ascii: "R"):
                if let value = value(of: "REQUEST_METHOD=", in: entry) {
                    head.method = HTTPMethod(cString: value)
                } else if let value = value(of: "REQUEST_URI=", in: entry) {
                    let end = strchr(value, Int32(UInt8(ascii: "?"))) ?? value + strlen(value)
                    uriPath = String(decoding: UnsafeRawBufferPointer(start: value, count: end - value), as: UTF8.self)
                } else if let value = value(of: "REMOTE_ADDR=", in: entry) {
                    head.remoteAddress = String(cString: value)
                }
            case UInt8(ascii: "P"):
                if let value = value(of: "PATH_INFO=", in: entry) { pathInfo = String(cString: value) }
            case UInt8(ascii: "Q"):
                if let value = value(of: "QUERY_STRING=", in: entry), value.pointee != 0 {
                    head.query = String(cString: value)
                }
            case UInt8(ascii: "C"):
                if let value = value(of: "CONTENT_LENGTH=", in: entry) {
                    if value.pointee != 0 { head.contentLength = String(cString: value) }
                } else if let value = value(of: "CONTENT_TYPE=", in: entry), value.pointee != 0 {
                    contentType = value
                    entryBytes += RequestHeaders.entryByteCount(
                        name: contentTypeName.utf8CodeUnitCount, value: strlen(value))
                }
            default:
                continue
            }
        }
        head.headersTooLarge = headerBytes > maximumHeaderBytes
        head.path = pathInfo.isEmpty ? uriPath : pathInfo
        // A second pass copies the headers into a buffer of the size the first one counted.
        if !head.headersTooLarge {
            head.headers = RequestHeaders(byteCount: entryBytes) { writer in
                var cursor = parameters
                while let entry = cursor.pointee {
                    cursor += 1
                    guard entry.pointee == CChar(UInt8(ascii: "H")), let (name, value) = header(at: entry) else {
                        continue
                    }
                    writer.append(cgiName: name, value: value)
                }
                if let contentType {
                    writer.append(
                        cgiName: UnsafeRawBufferPointer(
                            start: contentTypeName.utf8Start, count: contentTypeName.utf8CodeUnitCount),
                        value: UnsafeRawBufferPointer(start: contentType, count: strlen(contentType)))
                }
            }
        }
        return head
    }

    /// `CONTENT_TYPE` is kept with the headers, under this name.
    private static let contentTypeName: StaticString = "HTTP_CONTENT_TYPE"

    /// The name and value of an `HTTP_*` parameter, or nil for any other.
    private static func header(at entry: UnsafeMutablePointer<CChar>) -> (
        UnsafeRawBufferPointer, UnsafeRawBufferPointer
    )? {
        guard startsWith("HTTP_", entry), let equals = strchr(entry, Int32(UInt8(ascii: "="))) else { return nil }
        return (
            UnsafeRawBufferPointer(start: entry, count: equals - entry),
            UnsafeRawBufferPointer(start: equals + 1, count: strlen(equals + 1))
        )
    }

    /// The value of the parameter at `entry` when it is `prefix` (a name and its `=`), else nil.
    private static func value(of prefix: StaticString, in entry: UnsafeMutablePointer<CChar>)
        -> UnsafeMutablePointer<CChar>?
    {
        startsWith(prefix, entry) ? entry + prefix.utf8CodeUnitCount : nil
    }

    /// Whether the C string `entry` starts with `prefix`: compared here rather than by `strncmp`, whose call
    /// costs more than the few bytes compared, once per parameter. A shorter entry differs at its NUL, so
    /// nothing past it is read.
    @inline(__always)
    private static func startsWith(_ prefix: StaticString, _ entry: UnsafeMutablePointer<CChar>) -> Bool {
        let expected = prefix.utf8Start
        for offset in 0..<prefix.utf8CodeUnitCount where UInt8(bitPattern: entry[offset]) != expected[offset] {
            return false
        }
        return true
    }

    /// Reads the body a head declares through `read` (which fills a buffer and returns the byte count,
    /// 0 at the end, negative on error). A body over `limit` is read into a small scratch buffer and dropped,
    /// so the transport stays in step without holding it in memory.
    static func body(
        declaredLength: String?, headersTooLarge: Bool, limit: Int, read: (UnsafeMutableRawBufferPointer) -> Int
    ) -> GatewayRequest.Body {
        guard headersTooLarge else { return body(declaredLength: declaredLength, limit: limit, read: read) }
        // Read off (and drop) the body so the connection stays in step, then refuse the request.
        _ = body(declaredLength: declaredLength, limit: 0, read: read)
        return .malformed("The request headers are larger than \(maximumHeaderBytes / 1024) KiB.")
    }

    static func body(declaredLength text: String?, limit: Int, read: (UnsafeMutableRawBufferPointer) -> Int)
        -> GatewayRequest.Body
    {
        guard let text, !text.isEmpty else { return .complete([]) }
        guard let declared = Int(text), declared >= 0 else {
            return .malformed("Content-Length is not a number.")
        }
        guard declared <= limit else {
            withUnsafeTemporaryAllocation(byteCount: 65536, alignment: 16) { scratch in
                var remaining = declared
                while remaining > 0 {
                    let count = read(UnsafeMutableRawBufferPointer(rebasing: scratch[..<min(remaining, scratch.count)]))
                    if count <= 0 { break }
                    remaining -= count
                }
            }
            return .tooLarge(declaredLength: declared)
        }
        var bytes = [UInt8](repeating: 0, count: declared)
        var filled = 0
        bytes.withUnsafeMutableBytes { buffer in
            while filled < declared {
                let count = read(UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                if count <= 0 { break }
                filled += count
            }
        }
        guard filled == declared else {
            return .malformed("The request body ended before Content-Length bytes arrived.")
        }
        return .complete(bytes)
    }
}
