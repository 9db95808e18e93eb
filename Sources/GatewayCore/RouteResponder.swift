/// A route's answer: what a mounted handler looks like to the router.
public protocol RouteResponder: Sendable {
    /// Answers one request. Runs on the worker thread that read it, so it must not block beyond
    /// `context.deadline`; throw ``GatewayError`` for answers of the error table.
    func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse
}
