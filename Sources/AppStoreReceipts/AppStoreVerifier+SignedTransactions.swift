import AppStoreSignedData
import Foundation
import GatewayCore
import PurchaseLedger

extension AppStoreVerifier {
    /// A restore sends one JWS per transaction; beyond this a body is not a restore.
    static let maximumSignedTransactions = 2_000

    /// Verifies StoreKit 2 signed transactions here (chain to `apple.root_certificates`, signature, bundle id,
    /// environment), without calling Apple, then records and answers exactly as for a receipt.
    public func verify(signedTransactions: [String], source: LedgerSource, context: RequestContext)
        throws(GatewayError) -> VerifiedReceipt
    {
        let verifier = try signedDataVerifier()
        guard signedTransactions.count <= Self.maximumSignedTransactions else {
            throw .badRequest("At most \(Self.maximumSignedTransactions) signed transactions per request.")
        }
        let payloads = try Self.verify(signedTransactions, with: verifier, context: context)
        guard let first = payloads.first, let bundleId = first.bundleId,
            payloads.allSatisfy({ $0.environment == first.environment && $0.bundleId == bundleId })
        else {
            throw .badRequest("The signed transactions must all be transactions of one app and environment.")
        }
        let transactions = payloads.compactMap { payload in
            (try? JSONValue.decoded(payload.json)).flatMap(AppleTransaction.init(signedPayload:))
        }
        guard transactions.count == payloads.count else {
            throw .badRequest("A signed transaction lacks transactionId or productId.")
        }
        return try record(
            transactions, status: 0, environment: first.environment, bundleId: bundleId, source: source,
            context: context,
            logger: context.logger)
    }

    /// The signed-data verifier of the `apple` section; 422 when it has no roots to check against.
    func signedDataVerifier() throws(GatewayError) -> SignedDataVerifier {
        guard let verifier = settings.signedData else {
            throw .signatureInvalid("this server has no apple.root_certificates to check signed data against")
        }
        return verifier
    }

    /// Every JWS verified (in one hop to the async verifier), or the ``GatewayError`` that tells the client
    /// why the first refused one cannot be trusted.
    static func verify(_ jwsList: [String], with verifier: SignedDataVerifier, context: RequestContext)
        throws(GatewayError) -> [SignedPayload]
    {
        do {
            return try waitFor { () async throws(SignedDataError) in
                var payloads: [SignedPayload] = []
                for jws in jwsList { payloads.append(try await verifier.verify(jws)) }
                return payloads
            }
        } catch {
            context.logger.info("signed data refused", metadata: ["reason": "\(error.reason)"])
            throw gatewayError(error)
        }
    }

    private static func gatewayError(_ error: SignedDataError) -> GatewayError {
        if error.isMalformed { return .badRequest("The signed transaction is malformed: \(error.reason).") }
        if error.isBundleMismatch { return .bundleMismatch }
        if error.refusedEnvironment != nil { return .environmentNotAccepted(error.reason) }
        return .signatureInvalid(error.reason)
    }

    /// Runs `operation` to completion from a worker thread (never a Swift concurrency thread): the
    /// certificate verifier is async, the FastCGI workers are not.
    static func waitFor<T: Sendable, Failure: Error>(
        _ operation: @escaping @Sendable () async throws(Failure) -> T
    ) throws(Failure) -> T {
        let result = ResultBox<T, Failure>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(Failure) {
                result.value = .success(try await operation())
            } catch {
                result.value = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try result.value!.get()
    }
}

/// Carries a result from a task to the thread waiting on a semaphore (which orders the accesses).
private final class ResultBox<T, Failure: Error>: @unchecked Sendable {
    var value: Result<T, Failure>?
}
