/// What the app account a request is for holds now, from the ledger alone (no receipt), with download
/// tokens. What the `entitlements` route is handed.
public struct AccountHoldings: HandlerNeeds {
    private let reading: @Sendable (GatewayRequest, RequestContext) throws -> AccountEntitlements

    package init(_ reading: @escaping @Sendable (GatewayRequest, RequestContext) throws -> AccountEntitlements) {
        self.reading = reading
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<AccountHoldings> {
        Provision(try source.provider.accountHoldings())
    }

    /// The entitlements of the account `request` is for: 401 `account_required` without one, 401
    /// `account_assertion_invalid` for a bad assertion.
    public func entitlements(for request: GatewayRequest, context: RequestContext) throws -> AccountEntitlements {
        try reading(request, context)
    }
}
