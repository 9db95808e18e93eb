import GatewayCore
import PurchaseVerification

/// `POST /v1/verify`: verifies an app receipt or signed transactions, records every transaction
/// (consumables included) in the ledger, and answers with the transactions and the entitlements they give.
public struct VerifyHandler: GatewayHandler {
    public static let name = "verify"
    public static var methods: [HTTPMethod] { [.post] }

    private let service: VerificationService

    public init(settings: HandlerSettings) throws {
        service = try settings.verificationService()
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let verified = try service.verify(request, source: .verify, context: context)
        let answer = Answer(
            status: verified.status,
            environment: verified.environment,
            bundle_id: verified.bundleId,
            transactions: verified.transactionsJSON,
            entitlements: verified.entitlementsJSON
        )
        return try .verification(answer, of: verified)
    }

    private struct Answer: Encodable {
        let status: Int
        let environment: String
        let bundle_id: String
        let transactions: [VerifiedPurchases.TransactionJSON]
        let entitlements: [VerifiedPurchases.EntitlementJSON]
    }
}
