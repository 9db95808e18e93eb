import Foundation

/// The payload of an App Store app receipt (PKCS#7), as Apple documents its ASN.1 fields. Unknown fields
/// are ignored; zero-length dates read as absent.
public struct AppReceipt: Sendable, Equatable {
    /// Field 0: `Production`, `ProductionSandbox` or `Xcode`.
    public let receiptType: String
    /// Field 2.
    public let bundleId: String
    /// Field 3.
    public let appVersion: String?
    /// Field 12: when the receipt was made; its certificates are checked at this moment.
    public let creationDate: Date
    /// Field 17, one record each.
    public let inAppPurchases: [InAppPurchase]

    /// The environment the receipt was issued in, named as signed transactions name it.
    public var environment: String {
        switch receiptType {
        case "ProductionSandbox": return "Sandbox"
        default: return receiptType
        }
    }

    /// One in-app purchase record (fields 1701-1719).
    public struct InAppPurchase: Sendable, Equatable {
        public let quantity: Int
        public let productId: String
        public let transactionId: String
        public let originalTransactionId: String
        public let purchaseDate: Date?
        public let originalPurchaseDate: Date?
        public let expiresDate: Date?
        public let cancellationDate: Date?
        public let webOrderLineItemId: String?
    }
}
