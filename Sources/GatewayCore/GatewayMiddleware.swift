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

/// Two middleware in order: `outer` runs first and `inner` is its `next`; nest them for longer chains
/// (`Chained(a, Chained(b, c))`). Generic rather than a list of existentials, so a chain known when the
/// gateway is built compiles to direct calls.
public struct Chained<Outer: GatewayMiddleware, Inner: GatewayMiddleware>: GatewayMiddleware {
    public let outer: Outer
    public let inner: Inner

    public init(_ outer: Outer, _ inner: Inner) {
        self.outer = outer
        self.inner = inner
    }

    public func handle(
        _ request: GatewayRequest,
        context: RequestContext,
        next: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) throws -> GatewayResponse {
        try outer.handle(request, context: context) { request, context in
            try inner.handle(request, context: context, next: next)
        }
    }
}
