import AppStoreReceipts
import GatewayCore

/// `POST /v1/restore-sync`: after a restore on a device the app re-sends its receipt; every transaction is
/// recorded idempotently in one ledger transaction, and the answer says how many purchases were new.
public struct RestoreSyncHandler: GatewayHandler {
    public static let name = "restore-sync"
    public static var methods: [HTTPMethod] { [.post] }

    private let verifier: AppStoreVerifier

    public init(settings: HandlerSettings) throws {
        verifier = try settings.appStoreVerifier()
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let verified = try verifier.verify(request, source: .restoreSync, context: context)
        let answer = Answer(
            environment: verified.environment,
            recorded: verified.recorded.recorded,
            known: verified.recorded.known,
            entitlements: verifier.entitlementsJSON(for: verified)
        )
        var response = GatewayResponse.json(
            Array(try JSONCoding.encoder.encode(answer)), headers: [("Cache-Control", "no-store")])
        response.logMetadata = verified.logMetadata
        return response
    }

    private struct Answer: Encodable {
        let environment: String
        let recorded: Int
        let known: Int
        let entitlements: [VerifiedReceipt.EntitlementJSON]
    }
}
