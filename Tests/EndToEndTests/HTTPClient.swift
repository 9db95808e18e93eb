import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A response as a client on the wire sees it.
struct HTTPResponse: Sendable {
    let status: Int
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }

    /// `error.code` of an error body.
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
}

/// A deliberately small HTTP/1.1 client over a TCP socket to 127.0.0.1: one request per connection,
/// so tests control every byte and time out on their own.
enum HTTPClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func request(
        port: Int,
        method: String = "GET",
        path: String,
        headers: [(String, String)] = [],
        body: [UInt8] = [],
        timeout: Duration = .seconds(10)
    ) throws -> HTTPResponse {
        // A Host among `headers` replaces ours (a signed URL's host names its port).
        let host = headers.contains { $0.0.lowercased() == "host" } ? "" : "Host: 127.0.0.1\r\n"
        var head = "\(method) \(path) HTTP/1.1\r\n\(host)Connection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let raw = try exchange(port: port, bytes: Array(head.utf8) + body, timeout: timeout)
        return try parse(raw, method: method)
    }

    /// Sends `bytes` to 127.0.0.1:`port` and reads until the server closes.
    static func exchange(port: Int, bytes: [UInt8], timeout: Duration) throws -> [UInt8] {
        let fd = try connectSocket(port: port, timeout: timeout)
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { break }  // the server may answer early (413) and close
            offset += sent
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && received.isEmpty { throw Failure(description: "no answer within \(timeout)") }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return received
    }

    /// A TCP socket connected to 127.0.0.1:`port`, with `timeout` on every send and receive.
    static func connectSocket(port: Int, timeout: Duration) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "cannot connect to port \(port)")
        }
        return fd
    }

    /// A connection the test drives by hand: send, read some, hang up.
    static func open(port: Int, timeout: Duration = .seconds(10)) throws -> RawConnection {
        RawConnection(fd: try connectSocket(port: port, timeout: timeout))
    }

    static func parse(_ raw: [UInt8], method: String) throws -> HTTPResponse {
        guard let end = raw.firstRange(of: Array("\r\n\r\n".utf8)) else {
            throw Failure(description: "incomplete response: \(String(decoding: raw, as: UTF8.self))")
        }
        let lines = String(decoding: raw[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line \(lines[0])")
        }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Array(raw[end.upperBound...])
        if headers.contains(where: { $0.name.lowercased() == "transfer-encoding" && $0.value == "chunked" }) {
            body = dechunk(body)
        }
        return HTTPResponse(status: status, headers: headers, body: method == "HEAD" ? [] : body)
    }

    private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while let lineEnd = bytes[index...].firstRange(of: Array("\r\n".utf8)) {
            let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText, radix: 16), size > 0 else { break }
            output += bytes[lineEnd.upperBound..<min(lineEnd.upperBound + size, bytes.count)]
            index = lineEnd.upperBound + size + 2
            guard index < bytes.count else { break }
        }
        return output
    }
}

/// A client socket under the test's control (see `HTTPClient.open`).
final class RawConnection {
    private let fd: Int32

    init(fd: Int32) { self.fd = fd }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw HTTPClient.Failure(description: "send failed") }
    }

    /// Reads until at least `count` bytes arrived (or the peer closed); returns how many did.
    func receive(atLeast count: Int) throws -> Int {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while total < count {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            total += got
        }
        return total
    }

    func close() { Glibc.close(fd) }
}
