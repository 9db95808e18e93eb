import Foundation
import GatewayCore
import PurchaseLedger

extension AppStoreVerifier {
    /// What an App Store server notification did to the ledger.
    public enum NotificationOutcome: String, Sendable {
        case recorded
        /// Its `notificationUUID` was recorded before; nothing changed.
        case duplicate
    }

    /// Verifies an App Store Server Notification V2 (`signedPayload`) and the signed transaction it carries,
    /// then records both once per `notificationUUID`: a refund or revocation arrives as the transaction's
    /// `revocationDate` (entitlement gone, downloads blocked), a renewal as its next period (expiry extended),
    /// REFUND_REVERSED clears the cancellation. Returns only after the ledger commit, so Apple's retries
    /// deliver anything that failed.
    public func record(notification signedPayload: String, context: RequestContext) throws(GatewayError)
        -> NotificationOutcome
    {
        let verifier = try signedDataVerifier()
        guard let payload = try Self.verify([signedPayload], with: verifier, context: context).first else {
            throw .badRequest("No notification.")
        }
        let fields = try JSONValue.decoded(payload.json)
        guard let type = fields["notificationType"]?.text, let uuid = fields["notificationUUID"]?.text else {
            throw .badRequest("The notification lacks notificationType or notificationUUID.")
        }
        let data = fields["data"]
        if payload.environment == "Production", let appAppleId = settings.appAppleId,
            data?["appAppleId"]?.integer != Int64(appAppleId)
        {
            throw .bundleMismatch
        }
        var rows: [LedgerTransaction] = []
        if let jws = data?["signedTransactionInfo"]?.text {
            guard let info = try Self.verify([jws], with: verifier, context: context).first,
                info.environment == payload.environment, let bundleId = info.bundleId,
                let transaction = AppleTransaction(signedPayload: try JSONValue.decoded(info.json))
            else { throw .badRequest("The notification's transaction does not match it.") }
            rows = EntitlementRules.ledgerTransactions(
                [transaction], environment: info.environment, bundleId: bundleId, catalog: catalog)
        }
        let notification = LedgerNotification(
            uuid: uuid, environment: payload.environment, type: type, subtype: fields["subtype"]?.text,
            reinstates: type == "REFUND_REVERSED",
            batch: LedgerBatch(transactions: rows, source: .notification, requestId: context.requestId))
        do {
            let outcome: NotificationOutcome = try ledger.recordNotification(notification) ? .recorded : .duplicate
            context.logger.info(
                "notification \(outcome.rawValue)",
                metadata: ["type": "\(type)", "environment": "\(payload.environment)", "uuid": "\(uuid)"])
            return outcome
        } catch {
            context.logger.error("the ledger could not record a notification", metadata: ["reason": "\(error.reason)"])
            throw .ledgerUnavailable(retryAfterSeconds: 2)
        }
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
