import Logging

extension GatewayApplication {
    /// The process's metrics, for a front to make its threads' recorders.
    public var metrics: GatewayMetrics { runtime.metrics }

    /// Counts, times and logs a request once its answer has been sent (or given up on): the metrics of
    /// its route (through the calling thread's `recorder`), and its log line when `log.requests` is on or it
    /// took longer than `log.slow_request_ms`.
    public func finished(
        _ request: GatewayRequest,
        context: RequestContext,
        response: GatewayResponse,
        receivedAt: ContinuousClock.Instant,
        recorder: RequestRecorder
    ) {
        let duration = receivedAt.duration(to: .now)
        // Mount paths, not request paths: the label set stays as small as the config.
        let route = router.route(for: request.path)?.path ?? "unrouted"
        recorder.record(route: route, status: response.status, duration: duration)
        let slow = log.slowRequest.map { duration >= $0 } ?? false
        guard slow || log.requests else { return }
        var metadata = response.logMetadata
        metadata["request-id"] = "\(context.requestId)"
        metadata["method"] = "\(request.method.rawValue)"
        metadata["route"] = "\(route)"
        metadata["status"] = "\(response.status)"
        let micros = duration.nanoseconds / 1000
        metadata["duration_ms"] = "\(micros / 1000).\(String(micros % 1000 + 1000).dropFirst())"
        runtime.logger.log(level: slow ? .warning : .info, slow ? "slow request" : "request", metadata: metadata)
    }
}
