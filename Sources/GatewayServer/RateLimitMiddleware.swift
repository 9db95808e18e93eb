import GatewayCore

/// Answers 429 `rate_limited` with `Retry-After` to a client (by its address, as the web server passes it
/// in `REMOTE_ADDR`) that exceeds its route's `rate_per_s` / `rate_burst`. Requests without an address (CGI
/// run by hand) are not limited.
package struct RateLimitMiddleware: GatewayMiddleware {
    package let limiter: ClientRateLimiter

    package init(limiter: ClientRateLimiter) { self.limiter = limiter }

    package func handle(
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
