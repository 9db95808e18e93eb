import GatewayCore

#if canImport(Glibc)
    import Glibc
#endif

/// Builds a ``GatewayRequest`` from CGI-style parameters: FastCGI's params, or the environment in CGI mode.
/// Both arrive as a NULL-terminated array of `NAME=value` C strings.
enum RequestDecoder {
    /// What the parameters say, before the body is read: the request itself (everything but the body; its
    /// path is `PATH_INFO` when non-empty, else the path of `REQUEST_URI`), and how to read its body
    /// (`headersTooLarge`: the HTTP headers passed exceed ``maximumHeaderBytes``, so the request is refused).
    /// A tuple, so the request moves out of it without a copy.
    typealias Head = (request: GatewayRequest, contentLength: String?, headersTooLarge: Bool)

    /// The request `parameters` describe, with its body read through `read` (see ``body(declaredLength:headersTooLarge:limit:read:)``).
    static func request(
        from parameters: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, bodyLimit: Int,
        read: (UnsafeMutableRawBufferPointer) -> Int
    ) -> GatewayRequest {
        var (request, contentLength, headersTooLarge) = head(from: parameters)
        request.body = body(
            declaredLength: contentLength, headersTooLarge: headersTooLarge, limit: bodyLimit, read: read)
        return request
    }

    /// More header bytes than any client of this API sends (nginx itself stops at 32 KiB by default); a web
    /// server that passes more is refused rather than believed.
    static let maximumHeaderBytes = 64 * 1024

    /// Reads `parameters`, turning into Swift strings only the ones a request needs: this runs for every
    /// request, and web servers pass dozens.
    static func head(from parameters: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Head {
        var method = HTTPMethod.get
        var uriPath = ""
        var pathInfo = ""
        var query = ""
        var contentLength: String?
        var remoteAddress: String?
        var headers: [(name: String, value: String)] = []
        var headersTooLarge = false
        headers.reserveCapacity(16)
        var headerBytes = 0
        var cursor = parameters
        while let entry = cursor.pointee {
            cursor += 1
            guard let equals = strchr(entry, Int32(UInt8(ascii: "="))) else { continue }
            let length = equals - entry
            let value = equals + 1
            if length > 5, memcmp(entry, "HTTP_", 5) == 0 {
                headerBytes += length + strlen(value)
                guard headerBytes <= maximumHeaderBytes else {
                    headersTooLarge = true
                    continue
                }
                headers.append(
                    (
                        name: String(decoding: UnsafeRawBufferPointer(start: entry, count: length), as: UTF8.self),
                        value: String(cString: value)
                    ))
            } else if named("REQUEST_METHOD", entry, length) {
                method = HTTPMethod(rawValue: String(cString: value))
            } else if named("REQUEST_URI", entry, length) {
                let end = strchr(value, Int32(UInt8(ascii: "?"))) ?? value + strlen(value)
                uriPath = String(decoding: UnsafeRawBufferPointer(start: value, count: end - value), as: UTF8.self)
            } else if named("PATH_INFO", entry, length) {
                pathInfo = String(cString: value)
            } else if named("QUERY_STRING", entry, length) {
                query = String(cString: value)
            } else if named("CONTENT_LENGTH", entry, length) {
                contentLength = String(cString: value)
            } else if named("CONTENT_TYPE", entry, length) {
                headers.append((name: "HTTP_CONTENT_TYPE", value: String(cString: value)))
            } else if named("REMOTE_ADDR", entry, length) {
                remoteAddress = String(cString: value)
            }
        }
        return (
            GatewayRequest(
                method: method, path: pathInfo.isEmpty ? uriPath : pathInfo, query: query, headers: headers,
                remoteAddress: remoteAddress),
            contentLength, headersTooLarge
        )
    }

    /// Whether the parameter name at `entry` (`length` bytes) is `name`.
    private static func named(_ name: StaticString, _ entry: UnsafeMutablePointer<CChar>, _ length: Int) -> Bool {
        name.utf8CodeUnitCount == length && memcmp(entry, name.utf8Start, length) == 0
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
