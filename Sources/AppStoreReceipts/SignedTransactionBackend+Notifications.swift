import AppStoreSignedData
import Foundation
import GatewayHandlerAPI
import PurchaseLedger
import PurchaseVerification

extension SignedTransactionBackend {
    /// An App Store Server Notification V2 (`{"signedPayload": "<JWS>"}`), verified with the signed
    /// transaction it carries; nil for a body of another kind. Production notifications must name
    /// `apple.app_apple_id` when it is set, wherever they carry their facts (`data`, `summary`,
    /// `externalPurchaseToken`, `appData`).
    func notification(_ delivery: NotificationDelivery, context: RequestContext) throws -> StoreNotification? {
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(delivery.body)) else { return nil }
        let verifier = try signedDataVerifier()
        guard let payload = try Self.verify([envelope.signedPayload], with: verifier, context: context).first else {
            throw GatewayError.badRequest("No notification.")
        }
        let fields = try JSONValue.decoded(payload.json)
        guard let type = fields["notificationType"]?.text, let uuid = fields["notificationUUID"]?.text else {
            throw GatewayError.badRequest("The notification lacks notificationType or notificationUUID.")
        }
        let data = fields["data"]
        if payload.environment == "Production", let appAppleId = settings.appAppleId,
            payload.appAppleId != Int64(appAppleId)
        {
            throw GatewayError.bundleMismatch
        }
        var bundleId: String?
        var transactions: [PurchaseTransaction] = []
        if let jws = data?["signedTransactionInfo"]?.text {
            guard let info = try Self.verify([jws], with: verifier, context: context).first,
                info.environment == payload.environment, let infoBundleId = info.bundleId,
                let transaction = PurchaseTransaction(signedPayload: try JSONValue.decoded(info.json))
            else { throw GatewayError.badRequest("The notification's transaction does not match it.") }
            bundleId = infoBundleId
            transactions = [transaction]
        }
        let renewal = try data?["signedRenewalInfo"]?.text.map { jws in
            try Self.renewal(
                jws, of: transactions, environment: payload.environment, verifier: verifier, context: context)
        }
        return StoreNotification(
            uuid: uuid, environment: payload.environment, type: type, subtype: fields["subtype"]?.text,
            reinstates: type == "REFUND_REVERSED", expires: ["EXPIRED", "GRACE_PERIOD_EXPIRED"].contains(type),
            bundleId: bundleId, transactions: transactions,
            evidenceAsked: type == "CONSUMPTION_REQUEST"
                ? EvidenceAsked(
                    store: AppStoreVerification.store,
                    requestedAt: fields["signedDate"]?.integer.map { Date(timeIntervalSince1970: Double($0) / 1000) }
                        ?? Date()) : nil,
            followUps: bundleId.flatMap { app in
                settings.finishes?.followUps(of: transactions, environment: payload.environment, app: app)
            } ?? [], renewal: renewal)
    }

    /// A subscription notification's `signedRenewalInfo`, verified like the rest: renewal info (not a transaction),
    /// signed in the notification's environment, about the subscription of the notification's transaction, which
    /// it must carry.
    private static func renewal(
        _ jws: String, of transactions: [PurchaseTransaction], environment: String, verifier: SignedDataVerifier,
        context: RequestContext
    ) throws -> SubscriptionRenewal {
        guard let info = try verify([jws], with: verifier, context: context).first, info.environment == environment
        else { throw GatewayError.badRequest("The notification's renewal info does not match it.") }
        let fields = try JSONValue.decoded(info.json)
        // Renewal info names Apple's original transaction: a family member's is kept under its qualified id.
        guard fields["transactionId"] == nil, let original = fields["originalTransactionId"]?.text,
            let product = fields["productId"]?.text, let transaction = transactions.first,
            transactions.allSatisfy({ $0.originalTransactionId == transaction.originalTransactionId }),
            transaction.originalTransactionId == original
                || transaction.originalTransactionId.hasSuffix(":family:\(original)") && transaction.familyShared
        else { throw GatewayError.badRequest("The notification's renewal info does not match it.") }
        var inBillingRetry: Bool?
        if case .bool(let retrying)? = fields["isInBillingRetryPeriod"] { inBillingRetry = retrying }
        return SubscriptionRenewal(
            environment: environment, originalTransactionId: transaction.originalTransactionId, productId: product,
            autoRenewProductId: fields["autoRenewProductId"]?.text,
            autoRenews: fields["autoRenewStatus"]?.integer.map { $0 == 1 },
            expirationIntent: fields["expirationIntent"]?.integer.map { Int(clamping: $0) },
            inBillingRetry: inBillingRetry,
            gracePeriodExpires: AppleDate.milliseconds(fields["gracePeriodExpiresDate"]),
            priceIncreaseConsented: fields["priceIncreaseStatus"]?.integer.map { $0 == 1 }, signedAt: info.signedDate,
            requestId: context.requestId)
    }

    private struct Envelope: Decodable {
        let signedPayload: String
    }
}

extension JSONValue {
    /// `data` as JSON; 400 when it is not (verified payloads always are).
    static func decoded(_ data: Data) throws(GatewayError) -> JSONValue {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw .badRequest("The signed payload is not JSON.")
        }
        return value
    }
}
