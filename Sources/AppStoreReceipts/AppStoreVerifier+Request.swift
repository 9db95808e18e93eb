import GatewayCore
import PurchaseLedger

extension AppStoreVerifier {
    /// Verifies the receipt in `request`'s JSON body (`{"receipt-data", "exclude-old-transactions"}`), as
    /// verify and restore-sync take it; 400 `bad_request` without one.
    public func verify(_ request: GatewayRequest, source: LedgerSource, context: RequestContext) throws
        -> VerifiedReceipt
    {
        guard let body = try ReceiptRequestBody(from: request), let receiptData = body.receiptData else {
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
