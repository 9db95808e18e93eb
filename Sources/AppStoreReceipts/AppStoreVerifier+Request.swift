import GatewayCore
import PurchaseLedger

extension AppStoreVerifier {
    /// Verifies what `request`'s JSON body carries, as verify, restore-sync and receipt downloads take it:
    /// StoreKit 2 signed transactions (checked here, without Apple), or an app receipt
    /// (`{"receipt-data", "exclude-old-transactions"}`, checked by Apple); 400 `bad_request` without either.
    public func verify(_ request: GatewayRequest, source: LedgerSource, context: RequestContext) throws
        -> VerifiedReceipt
    {
        guard let body = try ReceiptRequestBody(from: request) else {
            throw GatewayError.badRequest("The body must carry \"receipt-data\": the app receipt in base64.")
        }
        if !body.signedTransactions.isEmpty {
            return try verify(signedTransactions: body.signedTransactions, source: source, context: context)
        }
        guard let receiptData = body.receiptData else {
            throw GatewayError.badRequest("The body must carry \"receipt-data\": the app receipt in base64.")
        }
        return try verify(
            receiptData: receiptData,
            excludeOldTransactions: body.excludeOldTransactions,
            source: source,
            context: context
        )
    }
}
