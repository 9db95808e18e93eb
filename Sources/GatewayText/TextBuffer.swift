/// Bytes of text built in place, for what the gateway writes on every request (log lines, JSON answers):
/// no intermediate strings, one allocation unless it outgrows its first capacity.
package struct TextBuffer: ~Copyable {
    private var bytes: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// Whether `bytes` was allocated here (else it is the caller's scratch space, until the text outgrows it).
    private var ownsBytes: Bool

    /// An empty buffer with room for `capacity` bytes before it grows.
    package init(capacity: Int = 512) {
        self.capacity = capacity
        bytes = .allocate(capacity: capacity)
        ownsBytes = true
    }

    /// An empty buffer that writes into `scratch` (which must outlive it) until the text outgrows it: no
    /// allocation for text that fits, such as a request's log line in stack space.
    package init(scratch: UnsafeMutableBufferPointer<UInt8>) {
        capacity = scratch.count
        bytes = scratch.baseAddress!
        ownsBytes = false
    }

    deinit { if ownsBytes { bytes.deallocate() } }

    /// The bytes so far.
    package var array: [UInt8] { Array(UnsafeBufferPointer(start: bytes, count: count)) }

    /// The bytes so far, read in place.
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: bytes, count: count))
    }

    @inline(__always)
    package mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: extra) }
    }

    @inline(never)
    private mutating func grow(toHold extra: Int) {
        capacity = max(2 * capacity, count + extra)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        larger.update(from: bytes, count: count)
        if ownsBytes { bytes.deallocate() }
        bytes = larger
        ownsBytes = true
    }

    /// Lets `write` fill up to `maximum` bytes at the end; it returns how many it wrote.
    package mutating func append(upTo maximum: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximum)
        count += write(bytes + count)
    }

    @inline(__always)
    package mutating func append(_ text: StaticString) {
        append(bytes: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    package mutating func append(_ text: String) {
        text.withUTF8Bytes { append($0) }
    }

    package mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        guard let base = text.baseAddress else { return }
        append(bytes: base, count: text.count)
    }

    /// Copies `length` bytes from `source`; the short pieces a line is made of as two overlapping words
    /// (or a few bytes), as a `memcpy` call or a byte loop costs more than copying them.
    @inline(__always)
    private mutating func append(bytes source: UnsafePointer<UInt8>, count length: Int) {
        reserve(length)
        let target = UnsafeMutableRawPointer(bytes + count)
        let from = UnsafeRawPointer(source)
        switch length {
        case 8...16:
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
        case 4..<8:
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
        case 0..<4:
            for offset in 0..<length { bytes[count + offset] = source[offset] }
        default:
            (bytes + count).update(from: source, count: length)
        }
        count += length
    }

    /// Appends ` key=`, a logfmt field's start, in one step: a request line has five.
    package mutating func appendField(_ key: StaticString) {
        reserve(key.utf8CodeUnitCount + 2)
        bytes[count] = UInt8(ascii: " ")
        count += 1
        append(key)
        bytes[count] = UInt8(ascii: "=")
        count += 1
    }

    package mutating func append(byte: UInt8) {
        reserve(1)
        bytes[count] = byte
        count += 1
    }

    /// Appends `value` in double quotes with `"`, `\` and control characters escaped as JSON escapes them
    /// (logfmt values use the same escapes), so it can never end the string, the field or the line.
    package mutating func appendQuoted(_ value: String) {
        value.withUTF8Bytes { appendQuoted(bytes: $0) }
    }

    package mutating func appendQuoted(bytes value: UnsafeBufferPointer<UInt8>) {
        append("\"")
        for byte in value {
            switch byte {
            case 0x22: append("\\\"")
            case 0x5C: append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20, 0x7F:
                append("\\u00")
                append(byte: Self.hexDigit(byte >> 4))
                append(byte: Self.hexDigit(byte & 0xF))
            default: append(byte: byte)
            }
        }
        append("\"")
    }

    /// Writes a non-negative `value` with `fractionDigits` decimals at `text` (room for 24 bytes); returns
    /// the byte count.
    package static func writeDecimal(_ value: Int, fractionDigits: Int, at text: UnsafeMutablePointer<UInt8>) -> Int {
        // Counted first, then written from the last digit back: no reversal afterwards.
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        digits = max(digits, fractionDigits + 1)
        let length = digits + (fractionDigits > 0 ? 1 : 0)
        var position = length
        rest = value
        for written in 0..<digits {
            if written == fractionDigits, fractionDigits > 0 {
                position -= 1
                text[position] = UInt8(ascii: ".")
            }
            position -= 1
            text[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        return length
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x61 + value - 10 }
}
