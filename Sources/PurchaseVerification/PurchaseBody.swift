import Foundation
import GatewayHandlerAPI

/// The JSON object in the body of verify, restore-sync and content requests, read once, for the stores to
/// find their credentials in (each store module knows its own members, such as the App Store's
/// `receipt-data`). Flat bodies are read straight from their bytes (``FlatJSONObject``); anything else is
/// left to `JSONDecoder`, whose strict types decide (a boolean is never a number).
package struct PurchaseBody: Sendable {
    /// A member's value.
    package enum Value: Equatable, Sendable {
        case string(String)
        case bool(Bool)
        case null
        case strings([String])
        /// A number, an object, or a list of anything but strings.
        case other
    }

    package let members: [String: Value]

    /// The value of `key` when it is a string; nil when it is absent or `null`; throws `wrongType` otherwise.
    package func string(_ key: String, wrongType: GatewayError) throws(GatewayError) -> String? {
        switch members[key] {
        case nil, .null: nil
        case .string(let text): text
        default: throw wrongType
        }
    }

    /// Reads `request`'s body; nil when it is empty, `notAnObject` when it is not a JSON object.
    package init?(from request: GatewayRequest, notAnObject: GatewayError) throws(GatewayError) {
        guard case .complete(let body) = request.body, !body.isEmpty else { return nil }
        if let flat = FlatJSONObject(body) {
            members = flat.members.mapValues(Value.init)
            return
        }
        do {
            members = try Self.decoded(body)
        } catch {
            throw notAnObject
        }
    }

    /// The members of the JSON object `bytes` as `JSONDecoder` reads them.
    package static func decoded(_ bytes: [UInt8]) throws -> [String: Value] {
        try JSONDecoder().decode([String: Member].self, from: Data(bytes)).mapValues(\.value)
    }

    /// One member as `JSONDecoder` reads it.
    private struct Member: Decodable {
        let value: Value

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = .null
            } else if let text = try? single.decode(String.self) {
                value = .string(text)
            } else if let flag = try? single.decode(Bool.self) {
                value = .bool(flag)
            } else if let list = try? single.decode([String].self) {
                value = .strings(list)
            } else {
                value = .other
            }
        }
    }
}

extension PurchaseBody.Value {
    package init(_ flat: FlatJSONObject.Value) {
        switch flat {
        case .string(let text): self = .string(text)
        case .bool(let flag): self = .bool(flag)
        case .null: self = .null
        case .strings(let list): self = .strings(list)
        }
    }
}
