import GatewayCore

#if canImport(Glibc)
    import Glibc
#endif

/// Builds a ``GatewayRequest`` from CGI-style parameters: FastCGI's params, or the environment in CGI mode.
/// Both arrive as a NULL-terminated array of `NAME=value` C strings.
enum RequestDecoder {
    /// What the parameters say, before the body is read.
    struct Head {
        var method = HTTPMethod.get
        var requestURI = ""
        var pathInfo = ""
        var query = ""
        var contentLength: String?
        var remoteAddress: String?
        var headers: [(name: String, value: String)] = []

        /// The routing path: `PATH_INFO` when non-empty, else the path part of `REQUEST_URI`.
        var path: String {
            if !pathInfo.isEmpty { return pathInfo }
            if let mark = requestURI.firstIndex(of: "?") { return String(requestURI[..<mark]) }
            return requestURI
        }
    }

    static func head(from parameters: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Head {
        var head = Head()
        var cursor = parameters
        while let entry = cursor.pointee {
            cursor += 1
            guard let equals = strchr(entry, Int32(UInt8(ascii: "="))) else { continue }
            let nameLength = equals - entry
            let value = String(cString: equals + 1)
            if nameLength > 5, memcmp(entry, "HTTP_", 5) == 0 {
                head.headers.append((name: string(entry, nameLength), value: value))
                continue
            }
            switch string(entry, nameLength) {
            case "REQUEST_METHOD": head.method = HTTPMethod(rawValue: value)
            case "REQUEST_URI": head.requestURI = value
            case "PATH_INFO": head.pathInfo = value
            case "QUERY_STRING": head.query = value
            case "CONTENT_LENGTH": head.contentLength = value
            case "CONTENT_TYPE": head.headers.append((name: "HTTP_CONTENT_TYPE", value: value))
            case "REMOTE_ADDR": head.remoteAddress = value
            default: break
            }
        }
        return head
    }

    private static func string(_ start: UnsafeMutablePointer<CChar>, _ count: Int) -> String {
        start.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    /// Reads the body `head` declares through `read` (which fills a buffer and returns the byte count,
    /// 0 at the end, negative on error). A body over `limit` is read into a small scratch buffer and dropped,
    /// so the transport stays in step without holding it in memory.
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
