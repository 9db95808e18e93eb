import AppStoreSignedData
import Foundation
import GatewayCore
import PurchaseLedger

extension AppStoreVerifier {
    /// Verifies an app receipt here (`apple.verifier: local`), then records and answers exactly as for
    /// Apple's verdict. Throws `.uncheckable` when the receipt cannot be checked here (not a receipt, or not
    /// signed by a configured root), so `local-then-online` can ask Apple instead.
    func verifyLocally(receipt: String, source: LedgerSource, context: RequestContext) throws(LocalOutcome)
        -> VerifiedReceipt
    {
        guard let data = Data(base64Encoded: receipt) else {
            throw .uncheckable(.badRequest("receipt-data is not base64."))
        }
        let verifier: SignedDataVerifier
        do { verifier = try signedDataVerifier() } catch { throw .uncheckable(error) }
        let parsed: AppReceipt
        do {
            parsed = try Self.waitFor { () async throws(SignedDataError) in try await verifier.verify(receipt: data) }
        } catch {
            context.logger.info("receipt refused locally", metadata: ["reason": "\(error.reason)"])
            if error.isBundleMismatch { throw .refused(.bundleMismatch) }
            // A sandbox receipt gets the answer Apple's verdict would give it.
            if let environment = error.refusedEnvironment {
                throw .refused(environment == "Sandbox" ? .sandboxNotAccepted : .environmentNotAccepted(error.reason))
            }
            throw .uncheckable(
                error.isMalformed
                    ? .badRequest("The receipt is not an app receipt: \(error.reason).")
                    : .signatureInvalid(error.reason))
        }
        do {
            return try record(
                parsed.inAppPurchases.compactMap(AppleTransaction.init), status: 0, environment: parsed.environment,
                bundleId: parsed.bundleId, source: source, context: context, logger: context.logger)
        } catch {
            throw .refused(error)
        }
    }

    /// Why a local verification did not give a verdict.
    enum LocalOutcome: Error {
        /// Final: tell the client.
        case refused(GatewayError)
        /// Not checkable here; the error is for the client when there is no Apple to ask.
        case uncheckable(GatewayError)
    }
}
