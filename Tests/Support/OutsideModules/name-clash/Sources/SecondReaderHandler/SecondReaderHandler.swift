import GatewayHandlerAPI

/// A second module that answers to the name "reader".
public struct SecondReaderHandler: GatewayHandler {
    public static let name = "reader"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        GatewayResponse(status: 200)
    }
}
