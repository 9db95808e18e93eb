/// A transaction the Server API stand-in knows. Transactions of one `customer` in one environment make a
/// transaction history; dates are relative (`-30d`) or RFC 3339, as in receipt fixtures.
public struct SimAPITransaction: Codable, Sendable, Equatable {
    public var transactionId: String
    public var originalTransactionId: String?
    public var productId: String
    /// `Non-Consumable`, `Consumable`, `Auto-Renewable Subscription` or `Non-Renewing Subscription`.
    public var type: String = "Non-Consumable"
    /// `Production` or `Sandbox`: which host knows it.
    public var environment: String = "Production"
    public var customer: String = "customer"
    public var orderId: String?
    public var purchase: String = "-1d"
    public var expires: String?
    /// When set, the transaction was refunded then (and is in the refund history).
    public var revoked: String?
    public var appAccountToken: String?
    /// Apple's `inAppOwnershipType`: `PURCHASED`, or `FAMILY_SHARED` for a family member's access.
    public var ownership: String = "PURCHASED"
    /// The customer's app transaction, in the signed transaction as Apple signs it since API 1.17; without it, the
    /// transaction is signed as an older one was, and Get App Transaction Info answers the customer's own.
    public var appTransactionId: String?

    enum CodingKeys: String, CodingKey {
        case type, environment, customer, purchase, expires, revoked, ownership
        case transactionId = "transaction_id"
        case originalTransactionId = "original_transaction_id"
        case productId = "product_id"
        case orderId = "order_id"
        case appAccountToken = "app_account_token"
        case appTransactionId = "app_transaction_id"
    }

    public init(
        transactionId: String, productId: String, environment: String = "Production", customer: String = "customer"
    ) {
        self.transactionId = transactionId
        self.productId = productId
        self.environment = environment
        self.customer = customer
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transactionId = try container.decode(String.self, forKey: .transactionId)
        productId = try container.decode(String.self, forKey: .productId)
        originalTransactionId = try container.decodeIfPresent(String.self, forKey: .originalTransactionId)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? type
        environment = try container.decodeIfPresent(String.self, forKey: .environment) ?? environment
        customer = try container.decodeIfPresent(String.self, forKey: .customer) ?? customer
        orderId = try container.decodeIfPresent(String.self, forKey: .orderId)
        purchase = try container.decodeIfPresent(String.self, forKey: .purchase) ?? purchase
        expires = try container.decodeIfPresent(String.self, forKey: .expires)
        revoked = try container.decodeIfPresent(String.self, forKey: .revoked)
        appAccountToken = try container.decodeIfPresent(String.self, forKey: .appAccountToken)
        ownership = try container.decodeIfPresent(String.self, forKey: .ownership) ?? ownership
        appTransactionId = try container.decodeIfPresent(String.self, forKey: .appTransactionId)
    }
}
