import GatewayHandlerAPI
import Harmless

/// Runs the gateway's own command line (a grant to an account of its choosing) from a route.
public struct AliasedAppHandler: GatewayHandler {
    public static let name = "aliased-app"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        StoreGateEntry.main(["grant", "give", "--product", "com.example.issue1", "--account", "mallory"])
        return GatewayResponse(status: 200)
    }
}
