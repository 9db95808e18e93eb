import GatewayCore
import GatewayServer

#if canImport(Glibc)
    import Glibc
#endif

/// Plain CGI: one request from the environment and stdin, one response on stdout, same head and body
/// bytes as under FastCGI.
package enum CGIRunner {
    /// Answers the request described by this process's environment with `application`.
    package static func serve(with application: GatewayApplication) {
        let stats = GatewayStats()
        StandardStreams().serve(
            parameters: environ, application: application, recorder: application.metrics.makeRecorder(),
            counters: stats.makeWorkerCounters())
    }

    /// Writes a response for a request that never reached an application (the config did not load).
    package static func write(_ response: GatewayResponse, method: HTTPMethod) {
        StandardStreams().send(response, method: method, requestId: nil)
    }

    /// The method of the request in this process's environment.
    package static var requestMethod: HTTPMethod {
        getenv("REQUEST_METHOD").map { HTTPMethod(rawValue: String(cString: $0)) } ?? .get
    }
}

/// CGI's channel: the body on stdin, the answer on stdout.
private struct StandardStreams: RequestChannel {
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var count: Int
        repeat { count = Glibc.read(0, buffer.baseAddress, buffer.count) } while count < 0 && errno == EINTR
        return count
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(1, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}
