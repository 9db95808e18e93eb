/// Answers 429 `rate_limited` with `Retry-After` to a client (by its address, as the web server passes it
/// in `REMOTE_ADDR`) that exceeds its route's `rate_per_s` / `rate_burst`. Requests without an address (CGI
/// run by hand) are not limited.
public struct RateLimitMiddleware: GatewayMiddleware {
    public let limiter: ClientRateLimiter

    public init(limiter: ClientRateLimiter) { self.limiter = limiter }

    public func handle(
        _ request: GatewayRequest,
        context: RequestContext,
        next: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) throws -> GatewayResponse {
        if let client = request.remoteAddress, let retryAfter = limiter.admit(client) {
            throw GatewayError.rateLimited(retryAfterSeconds: retryAfter)
        }
        return try next(request, context)
    }
}

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
