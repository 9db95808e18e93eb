import GatewayCore

/// Writes the CGI response head (`Status:` line, headers, `Content-Length`) that FastCGI and CGI share,
/// so both transports answer byte-for-byte alike.
enum ResponseEncoder {
    /// The head for `response`. Headers whose name or value holds CR or LF are dropped: they could split
    /// the response.
    static func head(for response: GatewayResponse) -> [UInt8] {
        var text = "Status: \(response.status) \(reason(response.status))\r\n"
        for (name, value) in response.headers where isSafe(name) && isSafe(value) {
            text += "\(name): \(value)\r\n"
        }
        if response.status != 304 {
            text += "Content-Length: \(response.body.count)\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// Whether the body is sent: never for HEAD, 204 or 304.
    static func sendsBody(_ response: GatewayResponse, method: HTTPMethod) -> Bool {
        method != .head && response.status != 204 && response.status != 304
    }

    private static func isSafe(_ text: String) -> Bool {
        !text.utf8.contains { $0 == 13 || $0 == 10 }
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
