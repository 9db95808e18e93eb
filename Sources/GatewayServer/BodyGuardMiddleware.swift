import GatewayCore

/// Answers 413 `body_too_large` and 400 `bad_request` for bodies the transport could not take whole,
/// before any route sees the request.
package struct BodyGuardMiddleware: GatewayMiddleware {
    package let limit: Int

    package init(limit: Int) { self.limit = limit }

    package func handle(
        _ request: GatewayRequest,
        context: RequestContext,
        next: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) throws -> GatewayResponse {
        switch request.body {
        case .complete: return try next(request, context)
        case .tooLarge: throw GatewayError.bodyTooLarge(limit: limit)
        case .malformed(let why): throw GatewayError.badRequest(why)
        }
    }
}
