/// What the app account of the request being answered holds now, from the ledger alone (no receipt), with
/// download tokens. What the `entitlements` route is handed.
public struct AccountHoldings: HandlerNeeds {
    private let reading: @Sendable (GatewayRequest, RequestContext) throws -> AccountEntitlements
    private let use: CapabilityUse?

    package init(_ reading: @escaping @Sendable (GatewayRequest, RequestContext) throws -> AccountEntitlements) {
        self.reading = reading
        use = nil
    }

    private init(_ holdings: AccountHoldings, use: CapabilityUse) {
        reading = holdings.reading
        self.use = use
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<AccountHoldings> {
        Provision(AccountHoldings(try source.provider.accountHoldings(), use: source.use))
    }

    /// The entitlements of the account the request `context` belongs to is for: 401 `account_required` without
    /// one, 401 `account_assertion_invalid` for a bad assertion.
    public func entitlements(context: RequestContext) throws -> AccountEntitlements {
        guard let use else { throw GatewayError.internalError }
        let exchange = try use.exchange(for: context)
        return try reading(exchange.request, exchange.context)
    }
}
