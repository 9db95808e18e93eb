import Foundation
import GatewayCore

/// What a client offers to prove a purchase, read once from its request.
public enum Credential: Sendable, Equatable {
    /// `Authorization: Bearer <token>`: a download token issued by verify or restore-sync.
    case downloadToken(String)
    /// `{"receipt-data": "<base64>"}`: an app receipt, already decoded.
    case appReceipt(AppReceiptCredential)
    /// `{"signed-transaction": "<JWS>"}` or `{"signed-transactions": [...]}`: StoreKit 2 signed transactions.
    case signedTransactions([String])
    /// `{"transaction-id": "<id>"}`: a transaction id alone, for a backend that asks the store about it.
    case transactionId(String)

    /// The credential of a content request: a Bearer token first, else signed transactions or a receipt in
    /// the body. Throws 401 `receipt_required` when there is neither, 400 `bad_request` for a malformed one.
    init(contentRequest request: GatewayRequest) throws(GatewayError) {
        if let authorization = request.header("Authorization") {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].utf8.elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }),
                !parts[1].isEmpty
            else {
                throw .badRequest("Authorization must be \"Bearer <download token>\".")
            }
            self = .downloadToken(String(parts[1]))
            return
        }
        guard let credential = try Self(body: PurchaseRequestBody(from: request)) else { throw .receiptRequired }
        self = credential
    }

    /// The credential in the body of verify or restore-sync; 400 `bad_request` without one.
    init(verificationRequest request: GatewayRequest) throws(GatewayError) {
        guard let credential = try Self(body: PurchaseRequestBody(from: request)) else {
            throw .badRequest(
                "The body must carry \"receipt-data\" (the app receipt in base64), \"signed-transaction\" or \"transaction-id\"."
            )
        }
        self = credential
    }

    private init?(body: PurchaseRequestBody?) throws(GatewayError) {
        guard let body else { return nil }
        if !body.signedTransactions.isEmpty {
            self = .signedTransactions(body.signedTransactions)
        } else if let receiptData = body.receiptData {
            self = .appReceipt(
                try AppReceiptCredential(base64: receiptData, excludeOldTransactions: body.excludeOldTransactions))
        } else if let transactionId = body.transactionId {
            self = .transactionId(transactionId)
        } else {
            return nil
        }
    }
}
