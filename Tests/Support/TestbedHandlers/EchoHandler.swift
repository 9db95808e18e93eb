import Crypto
import Foundation
import GatewayHandlerAPI

/// `POST /echo`: reports the body's length and SHA-256, so tests can check that bodies arrive whole.
public struct EchoHandler: GatewayHandler {
    public static let name = "echo"
    public static var methods: [HTTPMethod] { [.post, .put] }

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        guard case .complete(let body) = request.body else { throw GatewayError.internalError }
        let digest = SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()
        return .json(Array("{\"length\":\(body.count),\"sha256\":\"\(digest)\"}".utf8))
    }
}
