import AppStoreSignedData
import GatewayHandlerAPI

/// An app's signed AppTransaction (StoreKit's `AppTransaction`, or Get App Transaction Info's
/// `signedAppTransactionInfo`), already verified as signed data, checked as Apple's library checks it: of the
/// app and environment it is asked for (its `receiptType`), and in Production of the configured app Apple ID.
struct AppTransactionFacts {
    /// The customer's app transaction: one per Apple Account and app (a family member has their own).
    let appTransactionId: String

    init(_ payload: SignedPayload, environment: String, bundleId: String, settings: AppStoreSettings)
        throws(GatewayError)
    {
        guard let fields = try? JSONValue.decoded(payload.json), fields["transactionId"] == nil,
            fields["receiptType"] != nil
        else { throw .badRequest("The app transaction is not an AppTransaction (StoreKit's AppTransaction.shared).") }
        guard payload.bundleId == bundleId else { throw .bundleMismatch }
        guard payload.environment == environment else {
            throw .badRequest("The app transaction is of another environment than the purchases.")
        }
        if environment == "Production", let appAppleId = settings.appAppleId, payload.appAppleId != Int64(appAppleId) {
            throw GatewayError(
                GatewayError.bundleMismatch.code, status: GatewayError.bundleMismatch.status,
                message: "The app transaction is of another app: its app Apple ID is not apple.app_apple_id.")
        }
        guard let id = fields["appTransactionId"]?.text, !id.isEmpty else {
            throw .badRequest("The app transaction carries no appTransactionId (Apple signs one since iOS 18.4).")
        }
        appTransactionId = id
    }
}
