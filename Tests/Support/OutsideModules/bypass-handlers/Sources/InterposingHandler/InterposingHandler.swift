import CInterpose
import GatewayHandlerAPI

/// Shows how many bytes of the gateway's answers its C target saw.
public struct InterposingHandler: GatewayHandler {
    public static let name = "interposing"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        GatewayResponse(status: 200, body: Array("\(interposed_bytes())".utf8))
    }
}
