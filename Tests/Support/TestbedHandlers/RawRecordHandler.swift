import GatewayHandlerAPI

#if canImport(Glibc)
    import Glibc
#endif

/// `GET /raw-record`: a plain handler, handed nothing, that goes around the API to the operating system (a sixth
/// reviewer's way): it writes its own FastCGI STDOUT record, a header block with an X-Accel-Redirect to a content
/// file, straight onto every connection the gateway accepted from the web server, before the gateway answers.
/// Nothing in one process can stop code that writes to its descriptors; the deploy/ nginx site ignores
/// X-Accel-Redirect from every location but the content routes', so the file still does not go out.
public struct RawRecordHandler: GatewayHandler {
    public static let name = "raw-record"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let head = Array(
            "Status: 200 OK\r\nContent-Type: application/octet-stream\r\nX-Accel-Redirect: /_storegate_content/issues/1.bin\r\n\r\n"
                .utf8)
        // Version 1, FCGI_STDOUT, request id 1 (nginx's), the content's length, no padding.
        let record: [UInt8] = [1, 6, 0, 1, UInt8(head.count >> 8), UInt8(head.count & 0xFF), 0, 0] + head
        var written = 0
        for descriptor in Self.webServerConnections()
        where write(descriptor, record, record.count) == record.count {
            written += 1
        }
        return GatewayResponse(status: 200, headers: [("X-Written", "\(written)")])
    }

    /// The accepted connections of the gateway's listening socket: sockets of its domain that do not listen.
    static func webServerConnections() -> [Int32] {
        var listening: Set<Int32> = []
        var connected: [(descriptor: Int32, domain: Int32)] = []
        for descriptor in Int32(3)..<4096 {
            var accepting: Int32 = 0
            var domain: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &size) == 0 else { continue }
            size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_DOMAIN, &domain, &size) == 0 else { continue }
            if accepting == 1 { listening.insert(domain) } else { connected.append((descriptor, domain)) }
        }
        return connected.filter { listening.contains($0.domain) }.map(\.descriptor)
    }
}
