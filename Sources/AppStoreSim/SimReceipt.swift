/// One receipt the stand-in knows, as a fixture declares it (YAML file or `POST /_sim/receipts`).
///
/// The app's `receipt-data` is the base64 of `receipt` (any text), so tests can make receipts by name.
public struct SimReceipt: Codable, Sendable, Equatable {
    /// The receipt's bytes as text; `receipt-data` is their base64.
    public var receipt: String
    /// `Production` or `Sandbox`: posting to the other host answers 21007 / 21008 as Apple does.
    public var environment: String = "Production"
    public var bundleId: String = "com.example.magazine"
    /// `modern` (iOS 7+: `receipt.in_app`, `latest_receipt_info` array) or `ios6` (the receipt is the
    /// transaction; `latest_receipt_info` is an object; an expired subscription answers 21006).
    public var shape: String = "modern"
    /// Ids, quantities and `*_ms` as JSON numbers instead of Apple's strings (type drift seen in the wild).
    public var numbers: Bool = false
    /// `latest_receipt_info` as a single object instead of an array.
    public var latestAsObject: Bool = false
    public var transactions: [SimTransaction] = []
    /// Behaviour per call, in order; the last step repeats. Empty: answer normally every time.
    public var steps: [SimStep] = []

    enum CodingKeys: String, CodingKey {
        case receipt, environment, shape, numbers, transactions, steps
        case bundleId = "bundle_id"
        case latestAsObject = "latest_as_object"
    }

    public init(receipt: String, environment: String = "Production", transactions: [SimTransaction] = []) {
        self.receipt = receipt
        self.environment = environment
        self.transactions = transactions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receipt = try container.decode(String.self, forKey: .receipt)
        environment = try container.decodeIfPresent(String.self, forKey: .environment) ?? environment
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId) ?? bundleId
        shape = try container.decodeIfPresent(String.self, forKey: .shape) ?? shape
        numbers = try container.decodeIfPresent(Bool.self, forKey: .numbers) ?? false
        latestAsObject = try container.decodeIfPresent(Bool.self, forKey: .latestAsObject) ?? false
        transactions = try container.decodeIfPresent([SimTransaction].self, forKey: .transactions) ?? []
        steps = try container.decodeIfPresent([SimStep].self, forKey: .steps) ?? []
    }
}

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

/// How the stand-in answers one call for a receipt. With none of `status`, `http_status`, `body` or
/// `reset`, it answers the receipt normally (after `delay_ms`).
public struct SimStep: Codable, Sendable, Equatable {
    /// Wait this long before answering (a slow Apple).
    public var delayMs: Int?
    /// Answer `{"status": N}` in an HTTP 200 body.
    public var status: Int?
    /// With `status` 21100-21199: add `is-retryable` (or `is_retryable` when `underscore`).
    public var isRetryable: Bool?
    public var underscore: Bool?
    /// Answer with this HTTP status and a plain-text body (a 5xx outage).
    public var httpStatus: Int?
    /// Answer HTTP 200 with exactly these bytes (garbage, truncated JSON).
    public var body: String?
    /// Close the connection without answering.
    public var reset: Bool?

    enum CodingKeys: String, CodingKey {
        case status, body, reset, underscore
        case delayMs = "delay_ms"
        case isRetryable = "is_retryable"
        case httpStatus = "http_status"
    }

    public init(delayMs: Int? = nil, status: Int? = nil, httpStatus: Int? = nil, body: String? = nil) {
        self.delayMs = delayMs
        self.status = status
        self.httpStatus = httpStatus
        self.body = body
    }
}
