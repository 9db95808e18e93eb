@testable import GatewayHandlerAPI

/// Sets a response's delivery itself, through the API's package internals.
public struct TestableHandler: GatewayHandler {
    public static let name = "testable"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        GatewayResponse(status: 200)
    }
}
