import GatewayCore
import GatewayServer

#if canImport(Glibc)
    import Glibc
#endif

/// Plain CGI: one request, taken out of the process before the config loaded (``CGIRequest``), one response,
/// same head and body bytes as under FastCGI.
package enum CGIRunner {
    /// Answers `request` with `application`.
    package static func serve(_ request: CGIRequest, with application: GatewayApplication) {
        let stats = GatewayStats()
        StandardStreams(request: request).serve(
            parameters: request.parameters, application: application, recorder: application.metrics.makeRecorder(),
            counters: stats.makeWorkerCounters())
    }

    /// Answers `request` with `response`: the request never reached an application (the config did not load).
    package static func write(_ response: GatewayResponse, to request: CGIRequest) {
        StandardStreams(request: request).send(response, method: request.method, requestId: nil)
    }
}

/// CGI's channel: the body from the request's input, the answer to its output.
private struct StandardStreams: RequestChannel {
    let request: CGIRequest

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var count: Int
        repeat { count = Glibc.read(request.input, buffer.baseAddress, buffer.count) } while count < 0 && errno == EINTR
        return count
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(request.output, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}
