/// Echoes the request id on every answer, errors included. Runs first, so it sees every response.
public struct RequestIdMiddleware: GatewayMiddleware {
    public init() {}

    public func handle(
        _ request: GatewayRequest,
        context: RequestContext,
        next: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) throws -> GatewayResponse {
        var response = try next(request, context)
        response.requestId = context.requestId
        return response
    }
}
