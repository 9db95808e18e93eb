import GatewayHandlerAPI
import PurchaseVerification

/// The App Store's proofs of purchase as a request body carries them: `{"receipt-data": "<base64>",
/// "exclude-old-transactions": false}`, StoreKit 2's `{"signed-transaction": "<JWS>"}` /
/// `{"signed-transactions": ["<JWS>", ...]}` (with the app's signed AppTransaction as `"app-transaction"`, when it
/// sends it), or a bare `{"transaction-id": "<id>"}` for the App Store Server API to be asked about.
enum AppStoreCredential: StoreCredential, Equatable {
    /// An app receipt, already decoded.
    case appReceipt(AppReceiptCredential)
    /// StoreKit 2 signed transactions, and the app's signed AppTransaction when it sent one.
    case signedTransactions([String], appTransaction: String?)
    /// A transaction id alone.
    case transactionId(String)

    /// The members that carry one, in words.
    static let members = "\"receipt-data\" (the app receipt in base64), \"signed-transaction\" or \"transaction-id\""
    static let exampleBody = "{\"receipt-data\": \"<base64>\", \"exclude-old-transactions\": false}"

    /// The App Store credential in `body`: signed transactions first, then a receipt, then a transaction id;
    /// nil when it carries none; 400 when a member has the wrong type or the receipt is not base64.
    init?(body: PurchaseBody) throws(GatewayError) {
        let malformed = GatewayError.badRequest("The body must be a JSON object such as \(Self.exampleBody).")
        let receiptData = try body.string("receipt-data", wrongType: malformed).flatMap { $0.isEmpty ? nil : $0 }
        let signedTransaction = try body.string("signed-transaction", wrongType: malformed)
        let transactionId = try body.string("transaction-id", wrongType: malformed).flatMap { $0.isEmpty ? nil : $0 }
        let appTransaction = try body.string("app-transaction", wrongType: malformed).flatMap { $0.isEmpty ? nil : $0 }
        let excludeOld: Bool
        switch body.members["exclude-old-transactions"] {
        case nil, .null: excludeOld = false
        case .bool(let exclude): excludeOld = exclude
        default: throw malformed
        }
        let signedTransactions: [String]
        switch body.members["signed-transactions"] {
        case nil, .null: signedTransactions = signedTransaction.map { [$0] } ?? []
        case .strings(let list): signedTransactions = list + (signedTransaction.map { [$0] } ?? [])
        default: throw malformed
        }
        if !signedTransactions.isEmpty {
            self = .signedTransactions(signedTransactions, appTransaction: appTransaction)
        } else if let receiptData {
            self = .appReceipt(try AppReceiptCredential(base64: receiptData, excludeOldTransactions: excludeOld))
        } else if let transactionId {
            self = .transactionId(transactionId)
        } else {
            return nil
        }
    }
}

extension Credential {
    /// The App Store's proof this credential carries, if any.
    var appStore: AppStoreCredential? {
        if case .store(let credential as AppStoreCredential) = self { credential } else { nil }
    }
}
