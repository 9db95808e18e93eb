import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// One logfmt line as bytes: `ts=… level=… msg=…`, then `key=value` fields in the order they are added, then
/// written to standard error in one `write`, so lines from many workers never interleave. Built in place in
/// its own buffer, not by string interpolation: with request lines on, one is written for every request.
struct LogLine: ~Copyable, LogFields {
    private var bytes: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity = 512

    init(level: Logger.Level, message: String) {
        self.init(level: level)
        appendQuoted(message)
    }

    /// A line whose message is known to be one plain word, such as `request`.
    init(level: Logger.Level, plainMessage message: StaticString) {
        self.init(level: level)
        append(message)
    }

    private init(level: Logger.Level) {
        bytes = .allocate(capacity: capacity)
        append("ts=")
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        Self.writeTimestamp(seconds: now.tv_sec, milliseconds: now.tv_nsec / 1_000_000, at: bytes + count)
        count += 24
        append(" level=")
        append(level.rawValue)
        append(" msg=")
    }

    deinit { bytes.deallocate() }

    /// Adds ` key=value`, each quoted when it is not one plain word.
    mutating func add(_ key: String, _ value: String) {
        append(" ")
        appendQuoted(key)
        append("=")
        appendQuoted(value)
    }

    /// Adds ` key=value` for a key that is one plain word.
    mutating func add(plain key: StaticString, _ value: String) {
        append(" ")
        append(key)
        append("=")
        appendQuoted(value)
    }

    /// Adds ` key=digits` for a key that is one plain word and a number written with `fractionDigits`
    /// decimals (`duration_ms=0.123` is 123 with 3).
    mutating func add(plain key: StaticString, _ value: Int, fractionDigits: Int) {
        append(" ")
        append(key)
        append("=")
        reserve(24)
        count += Self.writeDecimal(value, fractionDigits: fractionDigits, at: bytes + count)
    }

    /// Writes a non-negative `value` with `fractionDigits` decimals at `text` (room for 24 bytes); returns
    /// the byte count.
    static func writeDecimal(_ value: Int, fractionDigits: Int, at text: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 0
        var rest = value
        repeat {
            if length == fractionDigits, fractionDigits > 0 {
                text[length] = UInt8(ascii: ".")
                length += 1
            }
            text[length] = UInt8(ascii: "0") + UInt8(rest % 10)
            length += 1
            rest /= 10
        } while rest > 0 || length <= fractionDigits + (fractionDigits > 0 ? 1 : 0)
        var digits = UnsafeMutableBufferPointer(start: text, count: length)
        digits.reverse()
        return length
    }

    /// The line so far, as text.
    var text: String { String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) }

    /// Ends the line and writes it whole to standard error.
    consuming func write() {
        append("\n")
        var offset = 0
        while offset < count {
            let written = Glibc.write(2, bytes + offset, count - offset)
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return  // nowhere to report a failure to log
            }
        }
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: extra) }
    }

    @inline(never)
    private mutating func grow(toHold extra: Int) {
        capacity = max(2 * capacity, count + extra)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        larger.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = larger
    }

    private mutating func append(_ text: StaticString) {
        reserve(text.utf8CodeUnitCount)
        (bytes + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount
    }

    private mutating func append(_ text: String) {
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ append($0) }) { return done }
        var text = text
        text.withUTF8 { append($0) }
    }

    private mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        guard let base = text.baseAddress else { return }
        reserve(text.count)
        (bytes + count).update(from: base, count: text.count)
        count += text.count
    }

    private mutating func append(byte: UInt8) {
        reserve(1)
        bytes[count] = byte
        count += 1
    }

    /// Appends the value as is when it is one plain word, else in double quotes with `"`, `\` and control
    /// characters escaped, so a value can never start a new line or a new field.
    private mutating func appendQuoted(_ value: String) {
        if let done: Void = value.utf8.withContiguousStorageIfAvailable({ appendQuoted(bytes: $0) }) { return done }
        var value = value
        value.withUTF8 { appendQuoted(bytes: $0) }
    }

    private mutating func appendQuoted(bytes value: UnsafeBufferPointer<UInt8>) {
        guard !Self.isPlain(value) else { return append(value) }
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

    /// One word with nothing to escape: no space or control character, no `"`, `=` or `\`.
    private static func isPlain(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !value.isEmpty else { return false }
        for byte in value where byte < 0x80 {
            let word = byte < 64 ? plainBelow64 : plainFrom64
            if word >> UInt64(byte & 63) & 1 == 0 { return false }
        }
        return true
    }

    /// Bit n set: ASCII byte n (or 64 + n) may stand in a plain word. One test per byte, as the request line
    /// checks every value it writes.
    private static let plainBelow64: UInt64 = ~0 << 0x21 & ~(1 << 0x22) & ~(1 << 0x3D)
    private static let plainFrom64: UInt64 = ~(1 << (0x5C - 64)) & ~(1 << (0x7F - 64))

    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x61 + value - 10 }

    /// UTC with milliseconds (`2026-11-22T21:40:00.123Z`). The civil date is computed from the day count
    /// (Howard Hinnant's `civil_from_days`) rather than by `gmtime_r`. Writes 24 bytes at `stamp`.
    static func writeTimestamp(seconds: Int, milliseconds: Int, at stamp: UnsafeMutablePointer<UInt8>) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        // Two digits at a time: one division by a constant (a multiply) per pair, no loop.
        func pair(_ value: Int, at position: Int) {
            let tens = value / 10
            stamp[position] = 0x30 + UInt8(truncatingIfNeeded: tens)
            stamp[position + 1] = 0x30 + UInt8(truncatingIfNeeded: value - 10 * tens)
        }
        pair(year / 100, at: 0)
        pair(year % 100, at: 2)
        stamp[4] = 0x2D
        pair(month, at: 5)
        stamp[7] = 0x2D
        pair(day, at: 8)
        stamp[10] = 0x54
        pair(secondOfDay / 3600, at: 11)
        stamp[13] = 0x3A
        pair(secondOfDay / 60 % 60, at: 14)
        stamp[16] = 0x3A
        pair(secondOfDay % 60, at: 17)
        stamp[19] = 0x2E
        stamp[20] = 0x30 + UInt8(milliseconds / 100)
        pair(milliseconds % 100, at: 21)
        stamp[23] = 0x5A
    }
}
