/// A store's server notification, verified by the backend that reads it, ready to be recorded once.
public struct StoreNotification: Sendable {
    /// The store's id of the notification; a repeat of it changes nothing.
    public let uuid: String
    public let environment: String
    public let type: String
    public let subtype: String?
    /// Whether it undoes an earlier refund (the App Store's REFUND_REVERSED).
    public let reinstates: Bool
    /// The app the transactions belong to, when the notification carries any.
    public let bundleId: String?
    /// The transaction the notification is about: a refund arrives as its cancellation date, a renewal as
    /// its next period.
    public let transactions: [PurchaseTransaction]

    public init(
        uuid: String, environment: String, type: String, subtype: String?, reinstates: Bool, bundleId: String?,
        transactions: [PurchaseTransaction]
    ) {
        self.uuid = uuid
        self.environment = environment
        self.type = type
        self.subtype = subtype
        self.reinstates = reinstates
        self.bundleId = bundleId
        self.transactions = transactions
    }
}
