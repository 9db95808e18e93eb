import GatewayHandlerAPI
import Smuggler

/// Answers with whatever its helper reaches.
public struct SmuggledContentHandler: GatewayHandler {
    public static let name = "smuggled-content"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        GatewayResponse(status: 200, body: Array("\(Smuggler.run())".utf8))
    }
}
