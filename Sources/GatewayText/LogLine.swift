import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// One logfmt line as bytes: `ts=… level=… msg=…`, then `key=value` fields in the order they are added, then
/// handed whole to a ``LogOutput``, so lines from many workers never interleave. Built in place in its own
/// buffer, not by string interpolation: with request lines on, one is written for every request.
package struct LogLine: ~Copyable, LogFields {
    private var buffer: TextBuffer

    package init(level: Logger.Level, message: String) {
        self.init(level: level)
        appendQuoted(message)
    }

    /// A line whose message is known to be one plain word, such as `request`, built in `scratch` (which
    /// must outlive it) while it fits.
    package init(level: Logger.Level, plainMessage message: StaticString, scratch: UnsafeMutableBufferPointer<UInt8>) {
        self.init(level: level, buffer: TextBuffer(scratch: scratch))
        buffer.append(message)
    }

    private init(level: Logger.Level, buffer: consuming TextBuffer = TextBuffer()) {
        self.buffer = buffer
        self.buffer.append("ts=")
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        self.buffer.append(upTo: UTCTimestamp.millisecondsLength) {
            UTCTimestamp.write(seconds: now.tv_sec, milliseconds: now.tv_nsec / 1_000_000, at: $0)
        }
        self.buffer.append(" level=")
        self.buffer.append(level.rawValue)
        self.buffer.append(" msg=")
    }

    /// Adds ` key=value`, each quoted when it is not one plain word.
    package mutating func add(_ key: String, _ value: String) {
        buffer.append(" ")
        appendQuoted(key)
        buffer.append("=")
        appendQuoted(value)
    }

    /// Adds ` key=value` for a key that is one plain word.
    package mutating func add(plain key: StaticString, _ value: String) {
        buffer.appendField(key)
        appendQuoted(value)
    }

    /// Adds ` key=digits` for a key that is one plain word and a number written with `fractionDigits`
    /// decimals (`duration_ms=0.123` is 123 with 3).
    package mutating func add(plain key: StaticString, _ value: Int, fractionDigits: Int) {
        buffer.appendField(key)
        buffer.append(upTo: 24) { TextBuffer.writeDecimal(value, fractionDigits: fractionDigits, at: $0) }
    }

    /// The line so far, as text.
    package var text: String { buffer.withBytes { String(decoding: $0, as: UTF8.self) } }

    /// Ends the line and writes it whole to `output`, gathered with others when `gathered` (request lines).
    package consuming func write(to output: LogOutput, gathered: Bool = false) {
        buffer.append("\n")
        buffer.withBytes { output.write($0, gathered: gathered) }
    }

    /// Appends the value as is when it is one plain word, else quoted and escaped, so a value can never
    /// start a new line or a new field.
    private mutating func appendQuoted(_ value: String) {
        value.withUTF8Bytes { appendQuoted(bytes: $0) }
    }

    private mutating func appendQuoted(bytes value: UnsafeBufferPointer<UInt8>) {
        if Self.isPlain(value) { buffer.append(value) } else { buffer.appendQuoted(bytes: value) }
    }

    /// One word with nothing to escape: no space or control character, no `"`, `=` or `\`. Eight bytes at a
    /// time (the last word overlapping the one before), as the request line checks every value it writes.
    private static func isPlain(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = value.baseAddress, !value.isEmpty else { return false }
        guard value.count >= 8 else { return bytesArePlain(value) }
        let words = UnsafeRawPointer(base)
        var offset = 0
        while offset < value.count {
            offset = min(offset, value.count - 8)
            if !wordIsPlain(words.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return false }
            offset += 8
        }
        return true
    }

    /// Whether none of the eight bytes in `word` is below 0x21 or one of `"`, `=`, `\`, DEL. Each test is
    /// the exact "has a zero byte" / "has a byte less than n" bit trick; bytes from 0x80 (UTF-8) pass.
    @inline(__always)
    private static func wordIsPlain(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        let below = (word &- ones &* 0x21) & ~word & highs != 0
        return
            !(below || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x3D))
            || hasZeroByte(word ^ (ones &* 0x5C)) || hasZeroByte(word ^ (ones &* 0x7F)))
    }

    private static func bytesArePlain(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
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
}
