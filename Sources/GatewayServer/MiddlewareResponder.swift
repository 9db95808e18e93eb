import GatewayCore

/// A route's responder behind a middleware.
struct MiddlewareResponder: RouteResponder {
    let middleware: any GatewayMiddleware
    let inner: any RouteResponder

    func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        try middleware.handle(request, context: context) { request, context in
            try inner.respond(to: request, context: context)
        }
    }
}
