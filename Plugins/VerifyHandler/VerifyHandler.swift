import AppStoreReceipts
import GatewayCore

/// `POST /v1/verify`: verifies an app receipt with the App Store, records every transaction (consumables
/// included) in the ledger, and answers with the transactions and the entitlements they give.
public struct VerifyHandler: GatewayHandler {
    public static let name = "verify"
    public static var methods: [HTTPMethod] { [.post] }

    private let verifier: AppStoreVerifier

    public init(settings: HandlerSettings) throws {
        verifier = try settings.appStoreVerifier()
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let verified = try verifier.verify(request, source: .verify, context: context)
        let answer = Answer(
            status: verified.status,
            environment: verified.environment,
            bundle_id: verified.bundleId,
            transactions: verified.transactionsJSON,
            entitlements: verifier.entitlementsJSON(for: verified)
        )
        var response = GatewayResponse.json(
            Array(try JSONCoding.encoder.encode(answer)), headers: [("Cache-Control", "no-store")])
        response.logMetadata = verified.logMetadata
        return response
    }

    private struct Answer: Encodable {
        let status: Int
        let environment: String
        let bundle_id: String
        let transactions: [VerifiedReceipt.TransactionJSON]
        let entitlements: [VerifiedReceipt.EntitlementJSON]
    }
}
