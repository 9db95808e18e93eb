import GatewayCore

/// One request on its way through a loaded application, the same for every transport: made once the
/// request is decoded, answered, then counted and logged. Its route is looked up once, here.
/// A class, so handing it between the worker and the watchdog costs one reference count.
package final class Exchange: Sendable {
    package let request: GatewayRequest
    package let context: RequestContext
    /// The configuration the request started on; a reload does not change it.
    package let application: GatewayApplication
    package let receivedAt: ArrivalTime
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
    package func respond() -> GatewayResponse {
        application.run(request, context) { request, context in
            try Self.sendable(application.router.respond(to: request, route: route, context: context), on: context)
        }
    }

    /// `response` as it may go out on `context`'s exchange: content only when it was made for this exchange
    /// (else 500, logged: a handler kept an answer with content and gave it to another request), and without a
    /// `Location` that would have a CGI web server serve one of its own paths in the gateway's place.
    static func sendable(_ response: GatewayResponse, on context: RequestContext) throws -> GatewayResponse {
        if let delivery = response.delivery, delivery.exchange != context.exchange || context.exchange == 0 {
            context.logger.error("a handler answered with content made for another request; refused")
            throw GatewayError.internalError
        }
        guard response.status == 200, response.headers.hasLocalLocation else { return response }
        var sent = response
        sent.headers = response.headers.removing("Location")
        return sent
    }

    /// The answer the chain gives when the request fails with `error` before its route answers it, such as
    /// a 504 `timeout` sent by the front.
    package func respond(failingWith error: GatewayError) -> GatewayResponse {
        application.run(request, context) { _, _ in throw error }
    }

    /// Counts, times and logs the request once its answer has been sent (or given up on): in `counters` (the
    /// status route's totals) and the route's metrics through the calling thread's `recorder`, and its log
    /// line when `log.requests` is on or it took longer than `log.slow_request_ms`.
    package func finished(_ response: GatewayResponse, recorder: RequestRecorder, counters: WorkerCounters) {
        let nanoseconds = receivedAt.elapsedNanoseconds
        // Mount paths, not request paths: the label set stays as small as the config.
        let routeLabel = route?.path ?? "unrouted"
        counters.record(status: response.status)
        recorder.record(route: routeLabel, status: response.status, nanoseconds: nanoseconds, error: response.errorCode)
        application.log(self, response: response, route: routeLabel, nanoseconds: nanoseconds)
    }
}
