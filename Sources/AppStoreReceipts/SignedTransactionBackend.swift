import AppStoreSignedData
import Foundation
import GatewayConcurrency
import GatewayHandlerAPI
import Logging
import PurchaseVerification

/// StoreKit 2 signed transactions (and App Store Server Notifications V2), verified here: the chain to
/// `apple.root_certificates`, the signature, the bundle id and the environment, without calling Apple.
/// With a `history` (`apple.verifier: server-api`), a restore also takes the customer's whole transaction
/// history from the App Store Server API.
struct SignedTransactionBackend: VerificationBackend {
    let settings: AppStoreSettings
    var history: ServerAPIBackend?

    /// A restore sends one JWS per transaction; beyond this a body is not a restore.
    static let maximumSignedTransactions = 2_000

    static let noRoots = GatewayError.signatureInvalid(
        "this server has no apple.root_certificates to check signed data against")

    func accepts(_ credential: Credential) -> Bool {
        if case .signedTransactions = credential.appStore { true } else { false }
    }

    func verify(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
        guard case .signedTransactions(let signedTransactions, let appTransaction) = credential.appStore else {
            throw GatewayError.receiptRequired
        }
        let verifier = try signedDataVerifier()
        guard signedTransactions.count <= Self.maximumSignedTransactions else {
            throw GatewayError.badRequest("At most \(Self.maximumSignedTransactions) signed transactions per request.")
        }
        let payloads = try Self.verify(signedTransactions, with: verifier, context: context)
        try Self.refuseRenewalInfo(payloads)
        guard let first = payloads.first, let bundleId = first.bundleId,
            payloads.allSatisfy({ $0.environment == first.environment && $0.bundleId == bundleId })
        else {
            throw GatewayError.badRequest(
                "The signed transactions must all be transactions of one app and environment.")
        }
        var transactions = payloads.compactMap { payload in
            (try? JSONValue.decoded(payload.json)).flatMap(PurchaseTransaction.init(signedPayload:))
        }
        guard transactions.count == payloads.count else {
            throw GatewayError.badRequest("A signed transaction lacks transactionId or productId.")
        }
        if let appTransaction {
            let signed = try Self.verify([appTransaction], with: verifier, context: context)
            let id = try signed.first.map { payload throws(GatewayError) in
                try AppTransactionFacts(payload, environment: first.environment, bundleId: bundleId, settings: settings)
                    .appTransactionId
            }
            guard let id, transactions.allSatisfy({ $0.appTransactionId == nil || $0.appTransactionId == id }) else {
                throw GatewayError.badRequest("The app transaction is another customer's than the signed transactions.")
            }
            transactions = transactions.map { $0.ofAppTransaction(id, claimedByApp: true) }
        }
        return StorePurchases(status: 0, environment: first.environment, bundleId: bundleId, transactions: transactions)
            .finishing(settings.finishes)
    }

    /// What the device sent, verified here, with Apple's history of the same customer: Apple's copy of a
    /// transaction wins (it knows of refunds the device may not), and a verified transaction Apple does not
    /// list is kept.
    func restore(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
        let sent = try verify(credential, context: context)
        guard let history, let first = sent.transactions.first else { return sent }
        let apple = try history.history(through: first.transactionId, context: context)
        guard apple.environment == sent.environment, apple.bundleId == sent.bundleId else {
            context.logger.warning(
                "Apple's history is of another app or environment than the signed transactions sent",
                metadata: ["environment": "\(apple.environment)", "bundle_id": "\(apple.bundleId)"])
            return sent
        }
        let known = Set(apple.transactions.map(\.transactionId))
        return StorePurchases(
            status: 0, environment: sent.environment, bundleId: sent.bundleId,
            transactions: apple.transactions + sent.transactions.filter { !known.contains($0.transactionId) },
            logMetadata: apple.logMetadata
        ).finishing(settings.finishes)
    }

    /// 400 naming a subscription's signed renewal info sent as a transaction: it carries no bundle id, and
    /// was answered as transactions of different apps.
    private static func refuseRenewalInfo(_ payloads: [SignedPayload]) throws(GatewayError) {
        for payload in payloads where payload.bundleId == nil {
            guard let fields = try? JSONValue.decoded(payload.json), fields["transactionId"] == nil,
                fields["autoRenewProductId"] != nil || fields["autoRenewStatus"] != nil
            else { continue }
            throw .badRequest(
                "A subscription's signed renewal info is not a transaction: send its signed transaction "
                    + "(StoreKit's Transaction.jwsRepresentation).")
        }
    }

    /// The signed-data verifier of the `apple` section; 422 when it has no roots to check against.
    func signedDataVerifier() throws(GatewayError) -> SignedDataVerifier {
        guard let verifier = settings.signedData else { throw Self.noRoots }
        return verifier
    }

    /// Every JWS verified (in one hop to the async verifier), or the ``GatewayError`` that tells the client
    /// why the first refused one cannot be trusted.
    static func verify(_ jwsList: [String], with verifier: SignedDataVerifier, context: RequestContext)
        throws(GatewayError) -> [SignedPayload]
    {
        do {
            return try AsyncBridge.wait { () async throws(SignedDataError) in
                var payloads: [SignedPayload] = []
                for jws in jwsList { payloads.append(try await verifier.verify(jws)) }
                return payloads
            }
        } catch {
            context.logger.info("signed data refused", metadata: ["reason": "\(error.reason)"])
            if error.isMalformed { throw .badRequest("The signed transaction is malformed: \(error.reason).") }
            if error.isBundleMismatch { throw .bundleMismatch }
            if error.refusedEnvironment != nil { throw .environmentNotAccepted(error.reason) }
            throw .signatureInvalid(error.reason)
        }
    }
}
