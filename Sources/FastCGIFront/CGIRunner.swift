import GatewayCore

#if canImport(Glibc)
    import Glibc
#endif

/// Plain CGI: one request from the environment and stdin, one response on stdout, same head and body
/// bytes as under FastCGI.
public enum CGIRunner {
    /// Answers the request described by this process's environment with `application`.
    public static func serve(with application: GatewayApplication) {
        let receivedAt = ContinuousClock.now
        let head = RequestDecoder.head(from: environ)
        let body = RequestDecoder.body(for: head, limit: application.server.maxBodyBytes) {
            buffer in
            var count: Int
            repeat { count = read(0, buffer.baseAddress, buffer.count) } while count < 0 && errno == EINTR
            return count
        }
        let request = GatewayRequest(
            method: head.method,
            path: head.path,
            query: head.query,
            headers: head.headers,
            body: body,
            remoteAddress: head.remoteAddress
        )
        let context = application.makeContext(for: request, receivedAt: receivedAt)
        let response = application.respond(to: request, context: context)
        write(response, method: request.method)
        application.finished(
            request, context: context, response: response, receivedAt: receivedAt,
            recorder: application.metrics.makeRecorder())
    }

    /// Writes a response for a request that never reached an application (the config did not load).
    public static func write(_ response: GatewayResponse, method: HTTPMethod) {
        var bytes = ResponseEncoder.head(for: response)
        let sendsBody = ResponseEncoder.sendsBody(response, method: method)
        if sendsBody, response.file == nil { bytes += response.body }
        guard bytes.withUnsafeBytes(writeAll), sendsBody, let file = response.file else { return }
        _ = file.stream(writeAll)
    }

    /// Writes all of `bytes` to stdout; false when the web server went away.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(1, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// The method of the request in this process's environment.
    public static var requestMethod: HTTPMethod {
        getenv("REQUEST_METHOD").map { HTTPMethod(rawValue: String(cString: $0)) } ?? .get
    }
}
