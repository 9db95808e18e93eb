import Foundation
import GatewayHandlerAPI

/// `/entitlement-echo/{product}`: a content route mounted the way real ones are (the App Store verifier of
/// the config, through the middleware); answers with the entitlement it was handed.
public struct EntitlementEchoHandler: ProductInPath {
    public static let name = "entitlement-echo"

    public let routePath: String

    public init(_ setup: HandlerSetup, needs: NoNeeds) {
        routePath = setup.routePath
    }

    public func respond(to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
    {
        struct Echo: Encodable {
            let product: String
            let original_transaction_id: String
            let environment: String
        }
        let echo = Echo(
            product: entitlement.productId,
            original_transaction_id: entitlement.originalTransactionId,
            environment: entitlement.environment
        )
        return .json(Array(try JSONCoding.encoder.encode(echo)))
    }
}
