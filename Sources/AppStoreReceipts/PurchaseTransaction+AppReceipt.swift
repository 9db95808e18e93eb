import AppStoreSignedData
import GatewayHandlerAPI
import PurchaseVerification

extension PurchaseTransaction {
    /// An in-app record of a receipt verified here. Nil when it lacks a transaction id or product id.
    init?(inAppPurchase purchase: AppReceipt.InAppPurchase) {
        guard !purchase.transactionId.isEmpty, !purchase.productId.isEmpty else { return nil }
        self.init(
            transactionId: purchase.transactionId, originalTransactionId: purchase.originalTransactionId,
            productId: purchase.productId, webOrderLineItemId: purchase.webOrderLineItemId,
            purchaseDate: purchase.purchaseDate, expiresDate: purchase.expiresDate,
            cancellationDate: purchase.cancellationDate, quantity: purchase.quantity)
    }
}
