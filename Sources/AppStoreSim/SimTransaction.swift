/// A transaction inside a fixture receipt. Dates are RFC 3339 or relative to now (`-30d`, `+2h`, `now`),
/// so fixtures for active and expired subscriptions stay true over time.
public struct SimTransaction: Codable, Sendable, Equatable {
    public var productId: String
    public var transactionId: String
    public var originalTransactionId: String?
    public var webOrderLineItemId: String?
    public var purchase: String = "-1d"
    public var expires: String?
    public var cancelled: String?
    public var quantity: Int = 1
    /// Where Apple lists it: `receipt` (in_app), `latest` (latest_receipt_info) or `both`.
    /// Default: `both` for subscription periods (with a web order line item), else `receipt`.
    public var listedIn: String?

    enum CodingKeys: String, CodingKey {
        case purchase, expires, cancelled, quantity
        case productId = "product_id"
        case transactionId = "transaction_id"
        case originalTransactionId = "original_transaction_id"
        case webOrderLineItemId = "web_order_line_item_id"
        case listedIn = "in"
    }

    public init(productId: String, transactionId: String, originalTransactionId: String? = nil) {
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        productId = try container.decode(String.self, forKey: .productId)
        transactionId = try container.decode(String.self, forKey: .transactionId)
        originalTransactionId = try container.decodeIfPresent(String.self, forKey: .originalTransactionId)
        webOrderLineItemId = try container.decodeIfPresent(String.self, forKey: .webOrderLineItemId)
        purchase = try container.decodeIfPresent(String.self, forKey: .purchase) ?? purchase
        expires = try container.decodeIfPresent(String.self, forKey: .expires)
        cancelled = try container.decodeIfPresent(String.self, forKey: .cancelled)
        quantity = try container.decodeIfPresent(Int.self, forKey: .quantity) ?? 1
        listedIn = try container.decodeIfPresent(String.self, forKey: .listedIn)
    }
}
