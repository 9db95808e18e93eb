/// A capability's service and, once the gateway has handed it to a route, where it may act: only while that
/// route answers, and only on the request being answered. A mirror shows nothing of it: the service is a
/// closure of public types, which a handler could cast a mirrored child to and call on any request.
struct RouteBound<Service: Sendable>: Sendable, CustomReflectable {
    private let service: Service
    /// Nil while the gateway holds the capability, before any route is handed it.
    private let use: CapabilityUse?

    init(_ service: Service) {
        self.service = service
        use = nil
    }

    private init(_ service: Service, use: CapabilityUse) {
        self.service = service
        self.use = use
    }

    var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The same service, for the route `source` builds.
    func bound(to source: CapabilitySource) -> RouteBound {
        RouteBound(service, use: source.use)
    }

    /// The service and the request being answered on `context`'s exchange, the only one it may act on.
    func serving(_ context: RequestContext) throws(GatewayError) -> (Service, any AnsweredExchange) {
        guard let use else { throw .internalError }
        return (service, try use.exchange(for: context))
    }

    /// The service, while its route answers.
    func serving() throws(GatewayError) -> Service {
        guard let use else { throw .internalError }
        try use.check()
        return service
    }
}
