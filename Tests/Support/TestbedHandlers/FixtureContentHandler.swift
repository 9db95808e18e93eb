import AppStoreReceipts
import GatewayCore

/// `GET /fixture-content/{product}`: a content route behind the verification middleware with
/// ``FixtureVerifier``; answers which entitlement it was handed.
public struct FixtureContentHandler: ContentHandler {
    public static let name = "fixture-content"

    private let routePath: String

    public init(settings: HandlerSettings) throws {
        routePath = settings.routePath
    }

    public static func makeResponder(settings: HandlerSettings) throws -> any RouteResponder {
        VerifiedContentRoute(handler: try Self(settings: settings), verifier: FixtureVerifier())
    }

    public func requestedProduct(in request: GatewayRequest, context: RequestContext) throws -> String {
        String(request.path.dropFirst(routePath.count + 1))
    }

    public func respond(to request: GatewayRequest, entitlement: VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
    {
        .json(Array("{\"product\":\"\(entitlement.productId)\",\"environment\":\"\(entitlement.environment)\"}".utf8))
    }
}
