import Logging

/// Somewhere a log line's fields go: a ``LogLine`` being built, or swift-log metadata.
package protocol LogFields: ~Copyable {
    /// Adds `key` (one plain word) with a text value.
    mutating func add(plain key: StaticString, _ value: String)
    /// Adds `key` (one plain word) with a non-negative number written with `fractionDigits` decimals.
    mutating func add(plain key: StaticString, _ value: Int, fractionDigits: Int)
}

extension Logger.Metadata: LogFields {
    package mutating func add(plain key: StaticString, _ value: String) { self["\(key)"] = "\(value)" }

    package mutating func add(plain key: StaticString, _ value: Int, fractionDigits: Int) {
        self["\(key)"] = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            let count = TextBuffer.writeDecimal(value, fractionDigits: fractionDigits, at: text.baseAddress!)
            return "\(String(decoding: text[..<count], as: UTF8.self))"
        }
    }
}
