import GatewayCore

/// A step every request of a chain passes through, in the order the chain lists them.
///
/// Contract: call `next` at most once; a middleware that answers by itself does not call it. Thrown errors
/// travel outward to the error-rendering middleware.
package protocol GatewayMiddleware: Sendable {
    func handle(
        _ request: GatewayRequest,
        context: RequestContext,
        next: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) throws -> GatewayResponse
}
