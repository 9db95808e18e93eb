import Foundation
import Yams

/// A fixture file, in YAML or JSON: `receipts:` (a list of ``SimReceipt``) for verifyReceipt and
/// `transactions:` (a list of ``SimAPITransaction``) for the Server API; either may be absent.
public struct SimFixtures: Decodable, Sendable {
    public var receipts: [SimReceipt]
    public var transactions: [SimAPITransaction]

    enum CodingKeys: String, CodingKey {
        case receipts, transactions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receipts = try container.decodeIfPresent([SimReceipt].self, forKey: .receipts) ?? []
        transactions = try container.decodeIfPresent([SimAPITransaction].self, forKey: .transactions) ?? []
    }

    public static func load(path: String) throws -> SimFixtures {
        try YAMLDecoder().decode(SimFixtures.self, from: try String(contentsOfFile: path, encoding: .utf8))
    }
}
