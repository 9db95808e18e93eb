import GatewayCore

/// What a client offers on a content route to prove a purchase.
public enum Credential: Sendable, Equatable {
    /// `Authorization: Bearer <token>`: a download token issued by verify or restore-sync.
    case downloadToken(String)
    /// `{"receipt-data": "<base64>"}` in a POST body: an App Store receipt.
    case receipt(String)
    /// `{"signed-transaction": "<JWS>"}` or `{"signed-transactions": [...]}`: StoreKit 2 signed transactions.
    case signedTransactions([String])

    /// The credential in `request`: a Bearer token first, else signed transactions or a receipt in the body.
    /// Throws 401 `receipt_required` when there is neither, 400 `bad_request` for a malformed body.
    public init(from request: GatewayRequest) throws {
        if let authorization = request.header("Authorization") {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else {
                throw GatewayError.badRequest("Authorization must be \"Bearer <download token>\".")
            }
            self = .downloadToken(String(parts[1]))
            return
        }
        let body = try ReceiptRequestBody(from: request)
        if let signed = body?.signedTransactions, !signed.isEmpty {
            self = .signedTransactions(signed)
        } else if let receipt = body?.receiptData {
            self = .receipt(receipt)
        } else {
            throw GatewayError.receiptRequired
        }
    }
}
