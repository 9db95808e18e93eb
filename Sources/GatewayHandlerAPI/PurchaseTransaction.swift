import Foundation

/// One purchase transaction as a store vouched for it, in the store's neutral form. Each store module maps
/// its own sources (an answer, a receipt record, a signed payload) to this with typed values.
public struct PurchaseTransaction: Sendable, Equatable {
    public let transactionId: String
    /// The purchase the transaction belongs to; restores make new transactions with the same original.
    public let originalTransactionId: String
    public let productId: String
    /// The subscription period's id, for auto-renewable subscriptions.
    public let webOrderLineItemId: String?
    public let purchaseDate: Date?
    public let expiresDate: Date?
    /// Set when the store refunded or revoked the transaction.
    public let cancellationDate: Date?
    public let quantity: Int
    /// The app account the purchase was made for, when the store carries one (Apple's `appAccountToken`, a
    /// UUID in lowercase).
    public let accountToken: String?
    /// True when the buyer has it through their family rather than by buying it (Apple's Family Sharing,
    /// `inAppOwnershipType` `FAMILY_SHARED`): a purchase of its own, apart from the family member's who paid.
    public let familyShared: Bool
    /// What the store refunded or revoked of it. A refund of the whole sets `cancellationDate` too; a prorated
    /// refund of some of a pack's items leaves it nil, as the rest is still the buyer's.
    public let revocation: PurchaseRevocation?
    /// The customer's app transaction (Apple's `appTransactionId`: one per Apple Account and app, a family member
    /// has their own), when known: the key support finds all of a customer's purchases by.
    public let appTransactionId: String?
    /// True when `appTransactionId` is only what the app claimed by sending its AppTransaction beside the
    /// transaction (Apple signed each, not the pair): the ledger then keeps one it knew before.
    package let appTransactionIdClaimedByApp: Bool

    public init(
        transactionId: String, originalTransactionId: String, productId: String, webOrderLineItemId: String?,
        purchaseDate: Date?, expiresDate: Date?, cancellationDate: Date?, quantity: Int, accountToken: String? = nil,
        familyShared: Bool = false, revocation: PurchaseRevocation? = nil, appTransactionId: String? = nil
    ) {
        self.init(
            transactionId: transactionId, originalTransactionId: originalTransactionId, productId: productId,
            webOrderLineItemId: webOrderLineItemId, purchaseDate: purchaseDate, expiresDate: expiresDate,
            cancellationDate: cancellationDate, quantity: quantity, accountToken: accountToken,
            familyShared: familyShared, revocation: revocation, appTransactionId: appTransactionId,
            claimedByApp: false)
    }

    private init(
        transactionId: String, originalTransactionId: String, productId: String, webOrderLineItemId: String?,
        purchaseDate: Date?, expiresDate: Date?, cancellationDate: Date?, quantity: Int, accountToken: String?,
        familyShared: Bool, revocation: PurchaseRevocation?, appTransactionId: String?, claimedByApp: Bool
    ) {
        self.appTransactionId = appTransactionId
        appTransactionIdClaimedByApp = claimedByApp
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.webOrderLineItemId = webOrderLineItemId
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.quantity = quantity
        self.accountToken = accountToken
        self.familyShared = familyShared
        self.revocation = revocation
    }
}

extension PurchaseTransaction {
    /// This transaction as the customer's whose app transaction is `appTransactionId`, unless it names one itself:
    /// as Apple said it (Get App Transaction Info), or as the app `claimed` it.
    package func ofAppTransaction(_ appTransactionId: String?, claimedByApp claimed: Bool) -> PurchaseTransaction {
        guard self.appTransactionId == nil, let appTransactionId else { return self }
        return PurchaseTransaction(
            transactionId: transactionId, originalTransactionId: originalTransactionId, productId: productId,
            webOrderLineItemId: webOrderLineItemId, purchaseDate: purchaseDate, expiresDate: expiresDate,
            cancellationDate: cancellationDate, quantity: quantity, accountToken: accountToken,
            familyShared: familyShared, revocation: revocation, appTransactionId: appTransactionId,
            claimedByApp: claimed)
    }
}
