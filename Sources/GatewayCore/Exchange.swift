/// One request on its way through a loaded application, the same for every transport: made once the
/// request is decoded, answered, then counted and logged. Its route is looked up once, here.
/// A class, so handing it between the worker and the watchdog costs one reference count.
public final class Exchange: Sendable {
    public let request: GatewayRequest
    public let context: RequestContext
    /// The configuration the request started on; a reload does not change it.
    public let application: GatewayApplication
    public let receivedAt: ArrivalTime
    /// The route mounted at the request's path, if any.
    let route: Router.Route?

    init(request: consuming GatewayRequest, application: GatewayApplication, receivedAt: ArrivalTime) {
        self.application = application
        self.receivedAt = receivedAt
        route = application.router.route(for: request.path)
        context = application.makeContext(for: request, receivedAt: receivedAt.instant)
        self.request = request
    }

    /// Routes and answers the request. Never throws: every failure is an error answer.
    public func respond() -> GatewayResponse {
        application.run(request, context) { request, context in
            try application.router.respond(to: request, route: route, context: context)
        }
    }

    /// The answer the chain gives when the request fails with `error` before its route answers it, such as
    /// a 504 `timeout` sent by the front.
    public func respond(failingWith error: GatewayError) -> GatewayResponse {
        application.run(request, context) { _, _ in throw error }
    }

    /// Counts, times and logs the request once its answer has been sent (or given up on): in `counters` (the
    /// status route's totals) and the route's metrics through the calling thread's `recorder`, and its log
    /// line when `log.requests` is on or it took longer than `log.slow_request_ms`.
    public func finished(_ response: GatewayResponse, recorder: RequestRecorder, counters: WorkerCounters) {
        let nanoseconds = receivedAt.elapsedNanoseconds
        // Mount paths, not request paths: the label set stays as small as the config.
        let routeLabel = route?.path ?? "unrouted"
        counters.record(status: response.status)
        recorder.record(route: routeLabel, status: response.status, nanoseconds: nanoseconds, error: response.errorCode)
        application.log(self, response: response, route: routeLabel, nanoseconds: nanoseconds)
    }
}
