import AppStoreSignedData
import GatewayConcurrency
import GatewayHandlerAPI
import Logging
import PurchaseVerification

/// App receipts checked here against `apple.root_certificates`, never sent to Apple. With a `fallback`
/// (`local-then-online`), a receipt that cannot be checked here (not parsed, not signed by a configured
/// root) goes to Apple; a genuine receipt of another app or environment is refused without asking Apple.
struct LocalReceiptBackend: VerificationBackend {
    let settings: AppStoreSettings
    let fallback: VerifyReceiptBackend?

    func accepts(_ credential: Credential) -> Bool {
        if case .appReceipt = credential.appStore { true } else { false }
    }

    var lastUpstreamError: String? { fallback?.lastUpstreamError }

    func verify(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
        guard case .appReceipt(let receipt) = credential.appStore else { throw GatewayError.receiptRequired }
        do {
            return try verifyHere(receipt, context: context)
        } catch {
            switch error {
            case .refused(let refusal): throw refusal
            case .uncheckable(let problem):
                guard let fallback else { throw problem }
                return try fallback.verify(credential, context: context)
            }
        }
    }

    private func verifyHere(_ receipt: AppReceiptCredential, context: RequestContext) throws(Outcome)
        -> StorePurchases
    {
        guard let verifier = settings.signedData else { throw .uncheckable(SignedTransactionBackend.noRoots) }
        let parsed: AppReceipt
        do {
            parsed = try AsyncBridge.wait { () async throws(SignedDataError) in
                try await verifier.verify(receipt: receipt.bytes)
            }
        } catch {
            // With Apple to ask, a receipt this server cannot check is the expected path (a stand-in's or an
            // older device's receipt), not news; a refusal is.
            let final = error.isBundleMismatch || error.refusedEnvironment != nil
            if fallback != nil, !final {
                context.logger.debug("receipt not checked here; asking Apple", metadata: ["reason": "\(error.reason)"])
            } else {
                context.logger.info("receipt refused here", metadata: ["reason": "\(error.reason)"])
            }
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
        return StorePurchases(
            status: 0, environment: parsed.environment, bundleId: parsed.bundleId,
            transactions: parsed.inAppPurchases.compactMap(PurchaseTransaction.init(inAppPurchase:))
        ).finishing(settings.finishes)
    }

    /// Why a receipt got no verdict here.
    private enum Outcome: Error {
        /// Final: tell the client.
        case refused(GatewayError)
        /// Not checkable here; the error is for the client when there is no Apple to ask.
        case uncheckable(GatewayError)
    }
}
