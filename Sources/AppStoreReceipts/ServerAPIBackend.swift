import AppStoreServerAPI
import GatewayCore
@_spi(VerifierBackends) import PurchaseVerification

/// A bare transaction id (`{"transaction-id": "<id>"}`, as StoreKit 2 apps can send) verified by asking the
/// App Store Server API for the customer's transaction history: Apple's signed answer, verified here, is
/// the truth recorded and answered, so restore-sync with an id gets every purchase, not only what the device
/// sent. Present when the `apple` section has `server_api`.
struct ServerAPIBackend: VerificationBackend {
    let client: ServerAPIClient

    func accepts(_ credential: Credential) -> Bool {
        if case .transactionId = credential { true } else { false }
    }

    func verify(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
        guard case .transactionId(let id) = credential else { throw GatewayError.receiptRequired }
        let history: [ServerAPISigned]
        do {
            history = try client.transactionHistory(id, deadline: context.deadline, logger: context.logger)
        } catch {
            throw error.gatewayError(logger: context.logger)
        }
        guard let first = history.first, let bundleId = first.payload.bundleId else {
            throw GatewayError.transactionNotFound
        }
        let transactions = history.compactMap { signed in
            (try? JSONValue.decoded(signed.payload.json)).flatMap(PurchaseTransaction.init(signedPayload:))
        }
        // Apple signed a transaction without an id or product: record none of the history rather than part.
        guard transactions.count == history.count else {
            context.logger.error("a signed transaction in Apple's history lacks transactionId or productId")
            throw GatewayError.upstreamUnavailable(retryAfterSeconds: UpstreamFailure.retryAfterSeconds)
        }
        return StorePurchases(
            status: 0, environment: first.payload.environment, bundleId: bundleId, transactions: transactions,
            logMetadata: ["apple_source": "transaction_history"])
    }
}
