import Foundation
import GatewayCore
import PurchaseLedger
import PurchaseVerification

/// The JSON body of one event as receivers get it: the same fields for every type, and the type's own facts
/// under `data`. Keys sorted, so a replay sends the same bytes.
package struct EventPayload: Encodable, Sendable {
    let id: String
    let type: String
    let at: String
    let store: String
    let environment: String
    let account_id: String?
    let product_id: String?
    let original_transaction_id: String
    let data: [String: Fact]

    package init(_ event: LedgerEvent) {
        id = event.id
        type = event.type
        at = Self.iso(event.at)
        store = PurchaseOrigin.store(of: event.originalTransactionId)
        environment = event.environment
        account_id = event.accountId
        product_id = event.productId
        original_transaction_id = event.originalTransactionId
        let object = (try? JSONSerialization.jsonObject(with: Data(event.facts.utf8))) as? [String: Any] ?? [:]
        data = object.compactMapValues(Fact.init)
    }

    /// Its bytes.
    package var body: [UInt8] { Array((try? JSONCoding.encoder.encode(self)) ?? Data("{}".utf8)) }

    /// `at` in UTC to the millisecond the ledger keeps, as the ledger's own dates in `data` are written
    /// (Foundation's fractional seconds would truncate a binary fraction: .123 came out as .122).
    private static func iso(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601)
        let digits = String(fraction)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    private enum CodingKeys: String, CodingKey {
        case id, type, at, store, environment, account_id, product_id, original_transaction_id, data
    }

    /// Null members are written as null, not left out: every event has every field.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(at, forKey: .at)
        try container.encode(store, forKey: .store)
        try container.encode(environment, forKey: .environment)
        try container.encode(account_id, forKey: .account_id)
        try container.encode(product_id, forKey: .product_id)
        try container.encode(original_transaction_id, forKey: .original_transaction_id)
        try container.encode(data, forKey: .data)
    }

    /// One fact: text, a whole number, or null.
    enum Fact: Encodable, Sendable, Equatable {
        case text(String)
        case number(Int64)
        case null

        init?(_ value: Any) {
            switch value {
            case let text as String: self = .text(text)
            case let number as Int: self = .number(Int64(number))
            case let number as Double: self = .number(Int64(number))
            case is NSNull: self = .null
            default: return nil
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            case .null: try container.encodeNil()
            }
        }
    }
}
