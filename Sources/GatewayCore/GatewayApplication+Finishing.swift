import Logging

extension GatewayApplication {
    /// The process's metrics, for a front to make its threads' recorders.
    public var metrics: GatewayMetrics { runtime.metrics }

    /// Writes the request's log line when `log.requests` is on or it took longer than `log.slow_request_ms`:
    /// straight through the process's line handler when the answer adds no fields (the common case), else
    /// through the logger with the answer's fields merged in. Both carry the fields of ``RequestLineFields``.
    func log(_ exchange: Exchange, response: GatewayResponse, route: String, nanoseconds: Int) {
        let slow = nanoseconds >= log.slowNanoseconds
        guard slow || log.requests else { return }
        let level: Logger.Level = slow ? .warning : .info
        let fields = RequestLineFields(
            exchange: exchange, route: route, status: response.status, nanoseconds: nanoseconds)
        if let lines = runtime.lines, response.logMetadata.isEmpty {
            guard level >= lines.logLevel else { return }
            var line =
                slow ? LogLine(level: level, message: "slow request") : LogLine(level: level, plainMessage: "request")
            fields.add(to: &line)
            line.write()
        } else {
            var metadata = response.logMetadata
            fields.add(to: &metadata)
            runtime.logger.log(level: level, slow ? "slow request" : "request", metadata: metadata)
        }
    }
}
