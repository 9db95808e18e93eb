import GatewayCore

/// Writes the CGI response head (`Status:` line, headers, `Content-Length`) that FastCGI and CGI share,
/// so both transports answer byte-for-byte alike.
enum ResponseEncoder {
    /// The head for `response`. Headers whose name or value holds CR or LF are dropped: they could split
    /// the response. Built byte by byte into one buffer: this runs for every response.
    static func head(for response: GatewayResponse) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        append("Status: ", to: &bytes)
        appendDecimal(response.status, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        append(reason(response.status), to: &bytes)
        bytes.append(contentsOf: crlf)
        for (name, value) in response.headers {
            let start = bytes.count
            append(name, to: &bytes)
            append(": ", to: &bytes)
            append(value, to: &bytes)
            if bytes[start...].contains(where: { $0 == 13 || $0 == 10 }) {
                bytes.removeSubrange(start...)
                continue
            }
            bytes.append(contentsOf: crlf)
        }
        if response.status != 304 {
            append("Content-Length: ", to: &bytes)
            appendDecimal(response.body.count, to: &bytes)
            bytes.append(contentsOf: crlf)
        }
        bytes.append(contentsOf: crlf)
        return bytes
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private static let crlf: [UInt8] = [13, 10]

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Whether the body is sent: never for HEAD, 204 or 304.
    static func sendsBody(_ response: GatewayResponse, method: HTTPMethod) -> Bool {
        method != .head && response.status != 204 && response.status != 304
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 206: "Partial Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 416: "Range Not Satisfiable"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }
}
