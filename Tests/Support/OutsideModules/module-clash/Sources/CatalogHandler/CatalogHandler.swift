import GatewayHandlerAPI

/// A catalog of its own, under the built-in module's name.
public struct CatalogHandler: GatewayHandler {
    public static let name = "my-catalog"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        GatewayResponse(status: 200)
    }
}
