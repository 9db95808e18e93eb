import GatewayHandlerAPI

/// `POST /v1/verify`: verifies an app receipt or signed transactions, records every transaction
/// (consumables included) in the ledger, and answers with the transactions and the entitlements they give.
public struct VerifyHandler: GatewayHandler {
    public static let name = "verify"
    public static var methods: [HTTPMethod] { [.post] }

    private let verifier: PurchaseVerifier

    public init(_ setup: HandlerSetup, needs verifier: PurchaseVerifier) {
        self.verifier = verifier
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let verified = try verifier.verify(context: context)
        return .verification(of: verified) { json in
            verified.writeAccount(to: &json)
            json.member("bundle_id", verified.bundleId)
            json.key("entitlements")
            verified.writeEntitlements(to: &json)
            json.member("environment", verified.environment)
            json.member("status", verified.status)
            json.key("transactions")
            verified.writeTransactions(to: &json)
        }
    }
}
