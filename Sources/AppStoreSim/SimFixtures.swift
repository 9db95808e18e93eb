import Foundation
import Yams

/// A fixture file, in YAML or JSON: `receipts:` (a list of ``SimReceipt``) for verifyReceipt,
/// `transactions:` (a list of ``SimAPITransaction``) for the Server API and `google_purchases:` (a list of
/// ``SimGooglePurchase``) for Google Play; any may be absent.
public struct SimFixtures: Decodable, Sendable {
    public var receipts: [SimReceipt]
    public var transactions: [SimAPITransaction]
    public var googlePurchases: [SimGooglePurchase]

    enum CodingKeys: String, CodingKey {
        case receipts, transactions
        case googlePurchases = "google_purchases"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receipts = try container.decodeIfPresent([SimReceipt].self, forKey: .receipts) ?? []
        transactions = try container.decodeIfPresent([SimAPITransaction].self, forKey: .transactions) ?? []
        googlePurchases = try container.decodeIfPresent([SimGooglePurchase].self, forKey: .googlePurchases) ?? []
    }

    public static func load(path: String) throws -> SimFixtures {
        try YAMLDecoder().decode(SimFixtures.self, from: try String(contentsOfFile: path, encoding: .utf8))
    }
}
