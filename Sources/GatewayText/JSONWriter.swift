import Foundation

/// JSON written value by value into one buffer, byte for byte as ``JSONCoding/encoder`` writes the same
/// values, provided each object's members come in sorted key order (the caller's part, as the key names
/// are fixed in code). For answers on every request, where `JSONEncoder`'s boxing and key sorting cost more
/// than the work behind the answer.
public struct JSONWriter: ~Copyable {
    private var buffer = TextBuffer()
    /// Whether the next value or key follows another one at the same level.
    private var needsComma = false

    /// An empty writer.
    public init() {}

    /// The JSON written so far.
    public var bytes: [UInt8] { buffer.array }

    /// An object whose members `members` writes, each as a ``key(_:)`` and then one value.
    public mutating func object(_ members: (inout JSONWriter) -> Void) {
        open("{")
        members(&self)
        close("}")
    }

    /// An array of `elements`, each written by `element`.
    public mutating func array<Elements: Sequence>(
        _ elements: Elements, _ element: (inout JSONWriter, Elements.Element) -> Void
    ) {
        open("[")
        for item in elements { element(&self, item) }
        close("]")
    }

    /// The next member's key: a fixed name that needs no escaping.
    public mutating func key(_ name: StaticString) {
        separate()
        buffer.append("\"")
        buffer.append(name)
        buffer.append("\":")
        needsComma = false
    }

    /// A string, or `null`.
    public mutating func string(_ value: String?) {
        separate()
        if let value { buffer.appendQuoted(value) } else { buffer.append("null") }
        needsComma = true
    }

    /// An integer.
    public mutating func number(_ value: Int) {
        separate()
        if value >= 0 {
            buffer.append(upTo: 24) { TextBuffer.writeDecimal(value, fractionDigits: 0, at: $0) }
        } else {
            buffer.append(String(value))
        }
        needsComma = true
    }

    /// `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        if value { buffer.append("true") } else { buffer.append("false") }
        needsComma = true
    }

    /// An integer, or `null`.
    public mutating func number(_ value: Int?) {
        guard let value else { return string(nil) }
        number(value)
    }

    /// An RFC 3339 UTC timestamp in whole seconds (`"2026-10-01T12:00:00Z"`, the fraction dropped), or `null`.
    /// Dates beyond four-digit years are written as the nearest such year's end.
    public mutating func date(_ value: Date?) {
        guard let value else { return string(nil) }
        let seconds = value.timeIntervalSince1970.rounded(.down)
        let bounds = UTCTimestamp.writableSeconds
        let clamped = seconds.isNaN ? 0 : Int(max(Double(bounds.lowerBound), min(Double(bounds.upperBound), seconds)))
        separate()
        buffer.append("\"")
        buffer.append(upTo: UTCTimestamp.secondsLength) { UTCTimestamp.write(seconds: clamped, at: $0) }
        buffer.append("\"")
        needsComma = true
    }

    /// A member with a string (or `null`) value.
    public mutating func member(_ name: StaticString, _ value: String?) {
        key(name)
        string(value)
    }

    /// A member with an integer value.
    public mutating func member(_ name: StaticString, _ value: Int) {
        key(name)
        number(value)
    }

    /// A member with a timestamp (or `null`) value, as ``date(_:)`` writes it.
    public mutating func member(_ name: StaticString, date value: Date?) {
        key(name)
        date(value)
    }

    private mutating func open(_ bracket: StaticString) {
        separate()
        buffer.append(bracket)
        needsComma = false
    }

    private mutating func close(_ bracket: StaticString) {
        buffer.append(bracket)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { buffer.append(",") }
    }
}
