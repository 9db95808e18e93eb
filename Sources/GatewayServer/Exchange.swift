import GatewayCore
import Logging
import Synchronization

/// One request on its way through a loaded application, the same for every transport: made once the
/// request is decoded, answered, then counted and logged. Its route is looked up once, here.
/// A class, so handing it between the worker and the watchdog costs one reference count.
package final class Exchange: AnsweredExchange, CustomReflectable {
    package let request: GatewayRequest
    package let context: RequestContext
    /// The configuration the request started on; a reload does not change it.
    package let application: GatewayApplication
    package let receivedAt: ArrivalTime
    /// The route mounted at the request's path, if any.
    let route: Router.Route?
    private let delivered = Atomic<Bool>(false)

    init(request: consuming GatewayRequest, application: GatewayApplication, receivedAt: ArrivalTime) {
        self.application = application
        self.receivedAt = receivedAt
        route = application.router.route(for: request.path)
        context = application.makeContext(for: request, receivedAt: receivedAt.instant)
        self.request = request
    }

    /// Nothing: the exchange leads to the whole loaded application (its routes, their services and keys), and
    /// code that reached it by its symbol (a fourth reviewer's outside package did) must find none of it.
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    package var number: UInt64 { context.exchange }
    package var routePath: String? { route?.path }

    package func claimDelivery() -> Bool {
        !delivered.exchange(true, ordering: .relaxed)
    }

    /// Routes and answers the request, as the calling thread's current exchange (what the capabilities a handler
    /// calls act on). Never throws: every failure is an error answer. Content goes out with the caching headers
    /// of ``ResponseHeaders/forContent()``, whatever the handler set.
    package func respond() -> GatewayResponse {
        let response = CurrentExchange.answering(self) {
            application.run(request, context) { request, context in
                let response = try application.router.respond(to: request, route: route, context: context)
                try Self.check(response, on: context)
                return response
            }
        }
        // Most answers need neither change: checked first, so that they leave without a copy (one cost 155
        // instructions a request).
        guard response.delivery != nil || (response.status == 200 && response.headers.hasLocalLocation) else {
            return response
        }
        return Self.sent(response)
    }

    /// `response` as it is sent: without a local `Location` on a 200, and with content's caching headers.
    private static func sent(_ response: consuming GatewayResponse) -> GatewayResponse {
        var response = response
        dropLocalRedirect(from: &response)
        if response.delivery != nil { response.headers = response.headers.forContent() }
        // A link's Location is the delivery's; a handler's own would be sent first, and followed.
        if response.delivery?.redirectURL != nil { response.headers = response.headers.removing("Location") }
        return response
    }

    /// The statuses an answer may carry: final HTTP statuses only (an interim 1xx was relayed with its body by
    /// nginx; a larger number Apache's atoi reads as another).
    static let finalStatuses = 200...599

    /// Refuses `response` if it carries content made for another exchange than `context`'s (a handler kept an
    /// answer with content and gave it to another request), or a status that is not a final HTTP status (a web
    /// server may read one its own way: Apache's atoi makes 4294967496 a 200; nginx relayed a 1xx with its body):
    /// 500, logged.
    static func check(_ response: borrowing GatewayResponse, on context: RequestContext) throws {
        guard finalStatuses.contains(response.status) else {
            context.logger.error("a handler answered with a status that is not a final HTTP status; refused")
            throw GatewayError.internalError
        }
        if let exchange = response.delivery?.exchange, exchange != context.exchange || context.exchange == 0 {
            context.logger.error("a handler answered with content made for another request; refused")
            throw GatewayError.internalError
        }
    }

    /// Drops from `response` a `Location` naming a path of this server when it is a 200, whoever made it (an
    /// answer or an error): a CGI web server would serve that path in the gateway's place.
    static func dropLocalRedirect(from response: inout GatewayResponse) {
        guard response.status == 200, response.headers.hasLocalLocation else { return }
        response.headers = response.headers.removing("Location")
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
