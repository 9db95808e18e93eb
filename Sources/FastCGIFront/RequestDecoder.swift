import GatewayCore

#if canImport(Glibc)
    import Glibc
#endif

/// Builds a ``GatewayRequest`` from CGI-style parameters: FastCGI's params, or the environment in CGI mode.
/// Both arrive as a NULL-terminated array of `NAME=value` C strings.
enum RequestDecoder {
    /// The request `parameters` describe, with its body read through `read` (see
    /// ``body(declaredLength:headersTooLarge:limit:read:)``). Its path is `PATH_INFO` when non-empty, else
    /// the path of `REQUEST_URI`; HTTP headers passed beyond ``maximumHeaderBytes`` make it a refused request.
    static func request(
        from parameters: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, bodyLimit: Int,
        read: (UnsafeMutableRawBufferPointer) -> Int
    ) -> GatewayRequest {
        // Each part in a constant, then the request made from them: built inside the initialiser's argument
        // list, the request was copied once more on its way out.
        let found = Found(parameters)
        let headersTooLarge = found.headerBytes > maximumHeaderBytes
        let method = found.method.map { HTTPMethod(cString: $0) } ?? .get
        let path = found.path
        let query = found.query.map { text($0, count: strlen($0)) } ?? ""
        let headers = headersTooLarge ? RequestHeaders() : found.headers(parameters)
        let remoteAddress = found.remoteAddress.map { text($0, count: strlen($0)) }
        let account = found.account.map { text($0, count: strlen($0)) }
        let body = body(
            declaredLength: found.contentLength.map { text($0, count: strlen($0)) },
            headersTooLarge: headersTooLarge, limit: bodyLimit, read: read)
        return GatewayRequest(
            method: method, path: path, query: query, headers: headers, body: body, remoteAddress: remoteAddress,
            webServerAccount: account)
    }

    /// More header bytes than any client of this API sends (nginx itself stops at 32 KiB by default); a web
    /// server that passes more is refused rather than believed.
    static let maximumHeaderBytes = 64 * 1024

    /// Where the values a request needs start among `parameters`, found in one pass: this runs for every
    /// request, and web servers pass dozens. Pointers only, so nothing is copied or counted until the
    /// request is built from them. A name is recognised by its first byte and then compared whole, so the
    /// parameters no request uses cost a byte compare each. Empty values count as absent.
    private struct Found {
        var method: UnsafeMutablePointer<CChar>?
        var uri: UnsafeMutablePointer<CChar>?
        var pathInfo: UnsafeMutablePointer<CChar>?
        var query: UnsafeMutablePointer<CChar>?
        var contentLength: UnsafeMutablePointer<CChar>?
        var contentType: UnsafeMutablePointer<CChar>?
        var remoteAddress: UnsafeMutablePointer<CChar>?
        var account: UnsafeMutablePointer<CChar>?
        /// The bytes of the `HTTP_*` parameters' names and values.
        var headerBytes = 0
        /// An upper bound of the bytes ``RequestHeaders`` needs for them.
        var entryBytes = 0

        init(_ parameters: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) {
            var cursor = parameters
            while let entry = cursor.pointee {
                cursor += 1
                switch UInt8(bitPattern: entry.pointee) {
                case UInt8(ascii: "H"):
                    guard startsWith("HTTP_", entry) else { continue }
                    let length = strlen(entry)
                    headerBytes += length - 1
                    entryBytes += RequestHeaders.entryByteCount(name: length - 1, value: 0)
                case UInt8(ascii: "R"):
                    if let value = value(of: "REQUEST_METHOD=", in: entry) {
                        method = value
                    } else if let value = value(of: "REQUEST_URI=", in: entry) {
                        uri = value
                    } else if let value = value(of: "REMOTE_ADDR=", in: entry) {
                        remoteAddress = value
                    }
                case UInt8(ascii: "P"):
                    if let value = value(of: "PATH_INFO=", in: entry) { pathInfo = value }
                case UInt8(ascii: "S"):
                    if let value = value(of: "STOREGATE_ACCOUNT=", in: entry) { account = value }
                case UInt8(ascii: "Q"):
                    if let value = value(of: "QUERY_STRING=", in: entry) { query = value }
                case UInt8(ascii: "C"):
                    if let value = value(of: "CONTENT_LENGTH=", in: entry) {
                        contentLength = value
                    } else if let value = value(of: "CONTENT_TYPE=", in: entry) {
                        contentType = value
                        entryBytes += RequestHeaders.entryByteCount(
                            name: contentTypeName.utf8CodeUnitCount, value: strlen(value))
                    }
                default:
                    continue
                }
            }
        }

        /// The routing path: `PATH_INFO` when given, else `REQUEST_URI` up to its query.
        var path: String {
            if let pathInfo { return text(pathInfo, count: strlen(pathInfo)) }
            guard let uri else { return "" }
            let end = strchr(uri, Int32(UInt8(ascii: "?"))) ?? uri + strlen(uri)
            return text(uri, count: end - uri)
        }

        /// The `HTTP_*` parameters (and `CONTENT_TYPE`), copied into one buffer in a second pass.
        func headers(_ parameters: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> RequestHeaders {
            RequestHeaders(byteCount: entryBytes) { writer in
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

        /// The value of the parameter at `entry` when it is `prefix` (a name and its `=`) with a non-empty
        /// value, else nil.
        private func value(of prefix: StaticString, in entry: UnsafeMutablePointer<CChar>)
            -> UnsafeMutablePointer<CChar>?
        {
            guard startsWith(prefix, entry) else { return nil }
            let value = entry + prefix.utf8CodeUnitCount
            return value.pointee == 0 ? nil : value
        }
    }

    /// `count` bytes at `start` as text.
    private static func text(_ start: UnsafeMutablePointer<CChar>, count: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
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
