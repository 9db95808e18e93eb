import Logging

extension GatewayApplication {
    /// The process's metrics, for a front to make its threads' recorders.
    public var metrics: GatewayMetrics { runtime.metrics }

    /// Writes the request's log line when `log.requests` is on or it took longer than `log.slow_request_ms`.
    func log(_ exchange: Exchange, response: GatewayResponse, route: String, duration: Duration) {
        let slow = log.slowRequest.map { duration >= $0 } ?? false
        guard slow || log.requests else { return }
        var metadata = response.logMetadata
        metadata["request-id"] = "\(exchange.context.requestId)"
        metadata["method"] = "\(exchange.request.method.rawValue)"
        metadata["route"] = "\(route)"
        metadata["status"] = "\(response.status)"
        let micros = duration.nanoseconds / 1000
        metadata["duration_ms"] = "\(micros / 1000).\(String(micros % 1000 + 1000).dropFirst())"
        runtime.logger.log(level: slow ? .warning : .info, slow ? "slow request" : "request", metadata: metadata)
    }
}
