import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One kept FastCGI connection to a gateway's unix socket, written byte for byte as a test lays it out, so a
/// test decides where each record falls in the gateway's reads.
final class FastCGIConnection {
    private let fd: Int32

    init(socketPath: String, timeout: Duration = .seconds(10)) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: socketPath.utf8) }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw HTTPClient.Failure(description: "cannot connect to \(socketPath)")
        }
    }

    /// A connection to `host`:`port` over TCP from the loopback address `source`.
    init(host: String, port: Int, source: String, timeout: Duration = .seconds(10)) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        func address(_ text: String, _ port: Int) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, text, &address.sin_addr)
            return address
        }
        var from = address(source, 0)
        var to = address(host, port)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &from) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
        }
        let connected = withUnsafePointer(to: &to) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) }
        }
        guard bound == 0, connected == 0 else {
            close(fd)
            throw HTTPClient.Failure(description: "cannot connect to \(host):\(port) from \(source)")
        }
    }

    deinit { close(fd) }

    /// A whole request as nginx sends it with FCGI_KEEP_CONN: request 1 begun, its parameters, its body and the
    /// body's end-of-stream record.
    static func request(_ parameters: [String: String], body: [UInt8] = []) -> [UInt8] {
        var encoded: [UInt8] = []
        for (name, value) in parameters {
            encoded += [UInt8(name.utf8.count), UInt8(value.utf8.count)] + Array(name.utf8) + Array(value.utf8)
        }
        // FCGI_BEGIN_REQUEST (responder, keep the connection), FCGI_PARAMS, FCGI_STDIN.
        return record(1, [0, 1, 1, 0, 0, 0, 0, 0]) + record(4, encoded) + record(4, [])
            + (body.isEmpty ? [] : record(5, body)) + record(5, [])
    }

    /// The bytes of `request` before its body's first byte.
    static func bytesBeforeBody(of parameters: [String: String]) -> Int { request(parameters).count }

    private static func record(_ type: UInt8, _ content: [UInt8]) -> [UInt8] {
        [1, type, 0, 1, UInt8(content.count >> 8), UInt8(content.count & 0xFF), 0, 0] + content
    }

    /// Writes `bytes` in one send.
    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads the answer up to its FCGI_END_REQUEST and returns its CGI text; nil if the gateway closed the
    /// connection (or said nothing for the timeout) first.
    func answer() -> String? {
        var text: [UInt8] = []
        while let header = read(8) {
            let length = Int(header[4]) << 8 | Int(header[5])
            guard let content = read(length + Int(header[6])) else { return nil }
            switch header[1] {
            case 6: text += content.prefix(length)  // FCGI_STDOUT
            case 3: return String(decoding: text, as: UTF8.self)  // FCGI_END_REQUEST
            default: continue
            }
        }
        return nil
    }

    private func read(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + filled, count - filled, 0) }
            guard got > 0 else { return nil }
            filled += got
        }
        return bytes
    }
}
