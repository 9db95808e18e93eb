import GatewayCore
import PurchaseVerification

/// `POST /v1/restore-sync`: after a restore on a device the app re-sends its receipt; every transaction is
/// recorded idempotently in one ledger transaction, and the answer says how many purchases were new.
public struct RestoreSyncHandler: GatewayHandler {
    public static let name = "restore-sync"
    public static var methods: [HTTPMethod] { [.post] }

    private let service: VerificationService

    public init(settings: HandlerSettings) throws {
        service = try settings.verificationService()
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let verified = try service.verify(request, source: .restoreSync, context: context)
        let answer = Answer(
            environment: verified.environment,
            recorded: verified.recorded.recorded,
            known: verified.recorded.known,
            entitlements: verified.entitlementsJSON
        )
        return try .verification(answer, of: verified)
    }

    private struct Answer: Encodable {
        let environment: String
        let recorded: Int
        let known: Int
        let entitlements: [VerifiedPurchases.EntitlementJSON]
    }
}
