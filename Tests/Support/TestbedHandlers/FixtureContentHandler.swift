import GatewayHandlerAPI

/// `GET /fixture-content/{product}`: a content route mounted like real ones; with a `fixture_verifier`
/// section its credentials are checked by ``FixtureBackend``. Answers which entitlement it was handed.
public struct FixtureContentHandler: ProductInPath {
    public static let name = "fixture-content"

    public let routePath: String

    public init(_ setup: HandlerSetup, needs: NoNeeds) {
        routePath = setup.routePath
    }

    public func respond(to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
    {
        .json(Array("{\"product\":\"\(entitlement.productId)\",\"environment\":\"\(entitlement.environment)\"}".utf8))
    }
}
