import GatewayHandlerAPI

/// `POST /v1/restore-sync`: after a restore on a device the app re-sends its receipt; every transaction is
/// recorded idempotently in one ledger transaction, and the answer says how many purchases were new.
public struct RestoreSyncHandler: GatewayHandler {
    public static let name = "restore-sync"
    public static var methods: [HTTPMethod] { [.post] }

    private let verifier: PurchaseVerifier

    public init(_ setup: HandlerSetup, needs verifier: PurchaseVerifier) {
        self.verifier = verifier
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let verified = try verifier.restore(context: context)
        return .verification(of: verified) { json in
            verified.writeAccount(to: &json)
            json.key("entitlements")
            verified.writeEntitlements(to: &json)
            json.member("environment", verified.environment)
            json.member("known", verified.knownPurchases)
            json.member("recorded", verified.recordedPurchases)
        }
    }
}
