import GatewayCore
import GatewayText

#if canImport(Glibc)
    import Glibc
#endif

/// Writes the CGI response head (`Status:` line, headers, `Content-Length`) that FastCGI and CGI share,
/// so both transports answer byte-for-byte alike.
enum ResponseEncoder {
    /// Hands `send` the head for `response`, built in a temporary buffer (on the stack for ordinary heads):
    /// this runs for every response. The headers arrive as their lines (``ResponseHeaders``, which drops
    /// any that holds CR or LF, or points the web server at a file). Content the web server sends comes from
    /// the response's delivery (`X-Accel-Redirect`), which only the content path makes. `X-Request-Id` comes
    /// last, left out if it holds CR or LF.
    static func withHead<Result>(
        for response: GatewayResponse, requestId: String?, _ send: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        let known = statusLine(response.status)
        let target = response.delivery?.webServerTarget
        let (redirect, fetch, location) = (target?.uri, target?.fetch, response.delivery?.redirectURL)
        return response.headers.lines.withUnsafeBufferPointer { lines in
            var capacity = (known?.utf8CodeUnitCount ?? 40) + "Content-Length: \r\n\r\n".utf8.count + 20 + lines.count
            if let id = requestId { capacity += "X-Request-Id: \r\n".utf8.count + id.utf8.count }
            if let redirect { capacity += "X-Accel-Redirect: \r\n".utf8.count + redirect.utf8.count }
            if let location { capacity += "Location: \r\n".utf8.count + location.utf8.count }
            if let fetch {
                capacity += "X-Accel-StoreGate-Fetch: \r\n".utf8.count + fetch.url.utf8.count
                for header in fetch.headers {
                    capacity += "X-Accel-StoreGate-: \r\n".utf8.count + header.name.utf8.count + header.value.utf8.count
                }
            }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
                var writer = Writer(cursor: buffer.baseAddress!)
                if let known {
                    writer.put(known)
                } else {
                    writer.put("Status: \(response.status) Status\r\n")
                }
                writer.put(bytes: lines)
                if let redirect { writer.putLine("X-Accel-Redirect: ", redirect) }
                if let location { writer.putLine("Location: ", location) }
                if let fetch {
                    writer.putLine("X-Accel-StoreGate-Fetch: ", fetch.url)
                    for header in fetch.headers where ResponseHeaders.isToken(header.name) {
                        writer.putLine("X-Accel-StoreGate-", header.name, header.value)
                    }
                }
                if let id = requestId { writer.putLine("X-Request-Id: ", id) }
                if response.status != 304 {
                    writer.put("Content-Length: ")
                    writer.put(decimal: response.contentLength)
                    writer.put("\r\n")
                }
                writer.put("\r\n")
                return send(
                    UnsafeRawBufferPointer(start: buffer.baseAddress!, count: writer.cursor - buffer.baseAddress!))
            }
        }
    }

    /// Copies bytes into a buffer sized beforehand. A struct, so its accesses are checked at compile time.
    private struct Writer {
        var cursor: UnsafeMutablePointer<UInt8>

        mutating func put(_ text: StaticString) {
            memcpy(cursor, text.utf8Start, text.utf8CodeUnitCount)
            cursor += text.utf8CodeUnitCount
        }

        /// `name` (with its colon) and `value` and a line end, or nothing when `value` holds CR or LF.
        mutating func putLine(_ name: StaticString, _ value: String) {
            guard ResponseHeaders.canCarry(value) else { return }
            put(name)
            put(value)
            put("\r\n")
        }

        /// `prefix` and `name` (a header name), a colon, `value` and a line end; nothing when `value` holds CR or LF.
        mutating func putLine(_ prefix: StaticString, _ name: String, _ value: String) {
            guard ResponseHeaders.canCarry(value) else { return }
            put(prefix)
            put(name)
            put(": ")
            put(value)
            put("\r\n")
        }

        /// A non-negative number in decimal digits.
        mutating func put(decimal value: Int) {
            var digits = 1
            var rest = value / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            rest = value
            for position in stride(from: digits - 1, through: 0, by: -1) {
                cursor[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            cursor += digits
        }

        mutating func put(_ text: String) {
            text.withUTF8Bytes { put(bytes: $0) }
        }

        mutating func put(bytes: UnsafeBufferPointer<UInt8>) {
            if let base = bytes.baseAddress { memcpy(cursor, base, bytes.count) }
            cursor += bytes.count
        }
    }

    /// Whether the body is sent: never for HEAD, 204 or 304.
    static func sendsBody(_ response: GatewayResponse, method: HTTPMethod) -> Bool {
        method != .head && response.status != 204 && response.status != 304
    }

    /// The status line for the statuses the gateway uses; others are written out at run time.
    static func statusLine(_ status: Int) -> StaticString? {
        switch status {
        case 200: "Status: 200 OK\r\n"
        case 201: "Status: 201 Created\r\n"
        case 204: "Status: 204 No Content\r\n"
        case 206: "Status: 206 Partial Content\r\n"
        case 302: "Status: 302 Found\r\n"
        case 304: "Status: 304 Not Modified\r\n"
        case 400: "Status: 400 Bad Request\r\n"
        case 401: "Status: 401 Unauthorized\r\n"
        case 403: "Status: 403 Forbidden\r\n"
        case 404: "Status: 404 Not Found\r\n"
        case 405: "Status: 405 Method Not Allowed\r\n"
        case 409: "Status: 409 Conflict\r\n"
        case 413: "Status: 413 Content Too Large\r\n"
        case 416: "Status: 416 Range Not Satisfiable\r\n"
        case 422: "Status: 422 Unprocessable Content\r\n"
        case 429: "Status: 429 Too Many Requests\r\n"
        case 500: "Status: 500 Internal Server Error\r\n"
        case 502: "Status: 502 Bad Gateway\r\n"
        case 503: "Status: 503 Service Unavailable\r\n"
        case 504: "Status: 504 Gateway Timeout\r\n"
        default: nil
        }
    }
}
