import AppStoreSignedData
import Foundation
import GatewayHandlerAPI
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
        return StoreNotification(
            uuid: uuid, environment: payload.environment, type: type, subtype: fields["subtype"]?.text,
            reinstates: type == "REFUND_REVERSED", bundleId: bundleId, transactions: transactions,
            evidenceAsked: type == "CONSUMPTION_REQUEST"
                ? EvidenceAsked(
                    store: AppStoreVerification.store,
                    requestedAt: fields["signedDate"]?.integer.map { Date(timeIntervalSince1970: Double($0) / 1000) }
                        ?? Date()) : nil,
            followUps: bundleId.flatMap { app in
                settings.finishes?.followUps(of: transactions, environment: payload.environment, app: app)
            } ?? [])
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
