import Foundation
/// Any JSON value, decoded without loss: integers stay exact (transaction ids exceed 2^53 in the wild), and
/// fields this build does not know survive for whoever reads them later.
package enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The member `key` of an object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// Text for ids and numbers that Apple sends as strings but others send as numbers.
    package var text: String? {
        switch self {
        case .string(let value): return value
        case .integer(let value): return String(value)
        case .number(let value) where value.rounded() == value && abs(value) < 1e18: return String(Int64(value))
        case .number(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        default: return nil
        }
    }

    /// A whole number from `12`, `"12"` or `12.0`.
    package var integer: Int64? {
        switch self {
        case .integer(let value): return value
        case .number(let value) where value.rounded() == value && abs(value) < 9e18: return Int64(value)
        case .string(let value): return Int64(value.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// A number from a JSON number or numeric string (fractional milliseconds included).
    package var double: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        case .string(let value): return Double(value.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// A boolean from `true`, `"true"`, `1` or `"1"`.
    package var bool: Bool? {
        switch self {
        case .bool(let value): return value
        case .integer(let value): return value != 0
        case .string(let value):
            switch value.lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: return nil
            }
        default: return nil
        }
    }

    /// The elements of an array, or the value itself when a single object stands where a list may be.
    package var list: [JSONValue] {
        switch self {
        case .array(let values): return values
        case .object: return [self]
        default: return []
        }
    }
}
