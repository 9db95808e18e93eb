/// Read-only purchase lookups for the people who answer customer mail: the ledger's story of each purchase a
/// query names, and the store's current view. What the `support` route is handed.
public struct SupportDesk: HandedOutNeeds {
    private var looking: RouteBound<@Sendable (SupportQuery, RequestContext) throws -> SupportLookup>

    package init(_ looking: @escaping @Sendable (SupportQuery, RequestContext) throws -> SupportLookup) {
        self.looking = RouteBound(looking)
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<SupportDesk> {
        var desk = try source.provider.supportDesk()
        desk.looking = desk.looking.bound(to: source)
        return Provision(desk)
    }

    /// Looks `query` up in the store (when one can be asked) and in the ledger, for the request `context` belongs
    /// to. Ledger failures throw; the store's are told in the lookup, so the ledger's story is told even when the
    /// store cannot be reached.
    public func lookUp(_ query: SupportQuery, context: RequestContext) throws -> SupportLookup {
        let (lookUp, exchange) = try looking.serving(context)
        return try lookUp(query, exchange.context)
    }
}

/// What support asks about: an order id (on the customer's receipt email), a transaction id, or a free grant's
/// id (`grant-…`).
public enum SupportQuery: Sendable, Equatable {
    case orderId(String)
    case transactionId(String)
    case grantId(String)
}
