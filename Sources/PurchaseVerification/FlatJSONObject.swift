/// A JSON object of plain members (strings, booleans, `null`, arrays of strings) read straight from its
/// bytes: what verify, restore-sync and download bodies are. `nil` for anything else (numbers, nested
/// objects, escapes other than `\"`, `\\` and `\/`, non-ASCII text, a key given twice), where the caller falls
/// back to `JSONDecoder`, which also words the error. Foundation's decoder costs more than the rest of a
/// cached verify.
package struct FlatJSONObject {
    /// A member's value.
    package enum Value: Equatable, Sendable {
        case string(String)
        case bool(Bool)
        case null
        case strings([String])
    }

    /// The members by key.
    package let members: [String: Value]

    /// Reads `bytes`; nil when they are not such an object.
    package init?(_ bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        guard let members = reader.object(), reader.atEnd else { return nil }
        self.members = members
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool {
            mutating get {
                skipSpace()
                return index == bytes.count
            }
        }

        mutating func object() -> [String: Value]? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [String: Value] = [:]
            if take(UInt8(ascii: "}")) { return members }
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")), let value = value(), members[key] == nil else {
                    return nil
                }
                members[key] = value
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}")) ? members : nil
        }

        private mutating func value() -> Value? {
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return word("null") ? .null : nil
            case UInt8(ascii: "["):
                index += 1
                var strings: [String] = []
                if take(UInt8(ascii: "]")) { return .strings(strings) }
                repeat {
                    guard let text = string() else { return nil }
                    strings.append(text)
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "]")) ? .strings(strings) : nil
            default: return nil
            }
        }

        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var text: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escaped = bytes[index]
                    guard escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") || escaped == UInt8(ascii: "/")
                    else { return nil }
                    text.append(escaped)
                    index += 1
                case 0x20..<0x80: text.append(byte)
                default: return nil
                }
            }
            return nil
        }

        private mutating func word(_ expected: StaticString) -> Bool {
            let length = expected.utf8CodeUnitCount
            guard index + length <= bytes.count,
                expected.withUTF8Buffer({ bytes[index..<index + length].elementsEqual($0) })
            else { return false }
            index += length
            return true
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }
    }
}
