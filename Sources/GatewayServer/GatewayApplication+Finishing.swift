import GatewayCore
import GatewayText
import Logging

extension GatewayApplication {
    /// The process's metrics, for a front to make its threads' recorders.
    package var metrics: GatewayMetrics { runtime.metrics }

    /// Writes the request's log line when `log.requests` is on or it took longer than `log.slow_request_ms`:
    /// straight to the process's line handler's output (the answer's fields merged in key order; gathered
    /// with other request lines, but a slow request's warning goes out at once), else through the logger with
    /// the answer's fields as metadata. Both carry the fields of ``RequestLineFields``.
    func log(_ exchange: Exchange, response: GatewayResponse, route: String, nanoseconds: Int) {
        let slow = nanoseconds >= log.slowNanoseconds
        guard slow || log.requests else { return }
        let level: Logger.Level = slow ? .warning : .info
        let fields = RequestLineFields(
            method: exchange.request.method.rawValue, requestId: exchange.context.requestId, route: route,
            status: response.status, nanoseconds: nanoseconds)
        // The level alone is read: copying the handler out costs reference counts on every request.
        guard let linesLevel = runtime.lines?.logLevel, let output = runtime.linesOutput else {
            var metadata = response.logMetadata
            fields.add(to: &metadata)
            return runtime.logger.log(level: level, slow ? "slow request" : "request", metadata: metadata)
        }
        guard level >= linesLevel else { return }
        fields.write(level: level, slow: slow, answerFields: response.logMetadata, to: output)
    }
}
