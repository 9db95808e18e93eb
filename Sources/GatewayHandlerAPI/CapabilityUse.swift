import Logging

/// Where a capability may be used: on the route it was handed to, while that route answers the request a
/// context belongs to. A capability kept in a global for another route, or called with a context kept from an
/// earlier request, is refused (500, logged): it acts on the request being answered, never on one a handler
/// made or kept.
struct CapabilityUse: Sendable {
    /// The mount path of the route the capability was handed to.
    let route: String

    /// The request being answered on `context`'s exchange, when this capability may act on it.
    func exchange(for context: RequestContext) throws(GatewayError) -> any AnsweredExchange {
        guard let current = CurrentExchange.current, current.number == context.exchange, current.routePath == route
        else {
            context.logger.error(
                "a handler used a capability outside the request it was handed for; refused",
                metadata: ["capability_route": "\(route)"])
            throw .internalError
        }
        return current
    }

    /// Whether the calling thread is answering a request on this capability's route.
    func check() throws(GatewayError) {
        guard CurrentExchange.current?.routePath == route else { throw .internalError }
    }
}
