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
