/// The offers the app account of the request being answered may have, decided from the ledger and signed with the
/// store's key, which the route never sees. What the `offers` route is handed.
public struct OfferSignatures: HandedOutNeeds {
    private var signing: RouteBound<@Sendable (GatewayRequest, String, RequestContext) throws -> AccountOffers>

    /// `signing` takes the request, the product id and the context.
    package init(_ signing: @escaping @Sendable (GatewayRequest, String, RequestContext) throws -> AccountOffers) {
        self.signing = RouteBound(signing)
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<OfferSignatures> {
        var offers = try source.provider.offerSignatures()
        offers.signing = offers.signing.bound(to: source)
        return Provision(offers)
    }

    /// The offers for `productId` of the account the request `context` belongs to is for: 401 `account_required`
    /// without one (`account_assertion_invalid` for a bad assertion), 404 `unknown_product` for a product that is
    /// not an auto-renewable subscription of the catalog.
    public func offers(for productId: String, context: RequestContext) throws -> AccountOffers {
        let (sign, exchange) = try signing.serving(context)
        return try sign(exchange.request, productId, exchange.context)
    }
}
