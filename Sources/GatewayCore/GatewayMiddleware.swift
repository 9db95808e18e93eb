/// A step every request of a chain passes through, in the order the chain lists them.
///
/// Contract: call `next` at most once; a middleware that answers by itself does not call it. Thrown errors
/// travel outward to the error-rendering middleware.
public protocol GatewayMiddleware: Sendable {
    func handle(
        _ request: GatewayRequest,
        context: RequestContext,
        next: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) throws -> GatewayResponse
}

/// Middleware in a fixed order around an endpoint. The first element runs first.
public struct MiddlewareChain: Sendable {
    public let middleware: [any GatewayMiddleware]

    public init(_ middleware: [any GatewayMiddleware]) {
        self.middleware = middleware
    }

    /// Runs the request through every middleware and then `endpoint`.
    public func run(
        _ request: GatewayRequest,
        context: RequestContext,
        endpoint: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) throws -> GatewayResponse {
        try step(0, request, context, endpoint)
    }

    private func step(
        _ index: Int,
        _ request: GatewayRequest,
        _ context: RequestContext,
        _ endpoint: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) throws -> GatewayResponse {
        guard index < middleware.count else { return try endpoint(request, context) }
        return try middleware[index].handle(request, context: context) { request, context in
            try step(index + 1, request, context, endpoint)
        }
    }
}
