import Foundation

/// What a store refunded or took back of a transaction: all of it, or (a prorated refund of a pack of several
/// items) a share of its quantity, the rest still the buyer's.
public struct PurchaseRevocation: Sendable, Hashable {
    /// When the store refunded or revoked it.
    public let date: Date
    /// The store's word for it, such as Apple's `REFUND_FULL`, `REFUND_PRORATED` or `FAMILY_REVOKE`; nil when
    /// the store gives none.
    public let type: String?
    /// The share refunded, in thousandths of a percent (Apple's `revocationPercentage`: 50000 is 50%).
    public let percentageMilliunits: Int?
    /// How many of the transaction's items it takes back; the transaction's whole quantity unless prorated.
    public let quantity: Int

    /// A revocation of `quantity` items at `date`, in the store's words.
    public init(date: Date, type: String?, percentageMilliunits: Int?, quantity: Int) {
        self.date = date
        self.type = type
        self.percentageMilliunits = percentageMilliunits
        self.quantity = quantity
    }
}
