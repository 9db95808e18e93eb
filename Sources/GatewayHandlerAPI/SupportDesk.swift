/// Read-only purchase lookups for the people who answer customer mail: the ledger's story of each purchase a
/// query names, and the store's current view. What the `support` route is handed.
public struct SupportDesk: HandlerNeeds {
    private let looking: @Sendable (SupportQuery, RequestContext) throws -> SupportLookup
    private let use: CapabilityUse?

    package init(_ looking: @escaping @Sendable (SupportQuery, RequestContext) throws -> SupportLookup) {
        self.looking = looking
        use = nil
    }

    private init(_ desk: SupportDesk, use: CapabilityUse) {
        looking = desk.looking
        self.use = use
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<SupportDesk> {
        Provision(SupportDesk(try source.provider.supportDesk(), use: source.use))
    }

    /// Looks `query` up in the store (when one can be asked) and in the ledger, for the request `context` belongs
    /// to. Ledger failures throw; the store's are told in the lookup, so the ledger's story is told even when the
    /// store cannot be reached.
    public func lookUp(_ query: SupportQuery, context: RequestContext) throws -> SupportLookup {
        guard let use else { throw GatewayError.internalError }
        return try looking(query, try use.exchange(for: context).context)
    }
}

/// What support asks about: an order id (on the customer's receipt email), a transaction id, or a free grant's
/// id (`grant-…`).
public enum SupportQuery: Sendable, Equatable {
    case orderId(String)
    case transactionId(String)
    case grantId(String)
}
