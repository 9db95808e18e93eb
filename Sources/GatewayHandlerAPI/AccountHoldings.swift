/// What the app account of the request being answered holds now, from the ledger alone (no receipt), with
/// download tokens. What the `entitlements` route is handed.
public struct AccountHoldings: HandedOutNeeds {
    private var reading: RouteBound<@Sendable (GatewayRequest, RequestContext) throws -> AccountEntitlements>

    package init(_ reading: @escaping @Sendable (GatewayRequest, RequestContext) throws -> AccountEntitlements) {
        self.reading = RouteBound(reading)
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<AccountHoldings> {
        var holdings = try source.provider.accountHoldings()
        holdings.reading = holdings.reading.bound(to: source)
        return Provision(holdings)
    }

    /// The entitlements of the account the request `context` belongs to is for: 401 `account_required` without
    /// one, 401 `account_assertion_invalid` for a bad assertion.
    public func entitlements(context: RequestContext) throws -> AccountEntitlements {
        let (read, exchange) = try reading.serving(context)
        return try read(exchange.request, exchange.context)
    }
}
