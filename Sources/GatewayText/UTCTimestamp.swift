import Synchronization

/// RFC 3339 timestamps in UTC (`2026-11-22T21:40:00Z`, or `2026-11-22T21:40:00.123Z` with milliseconds),
/// written straight into bytes: every request line carries one, and every verify answer several. The civil
/// date is computed from the day count (Howard Hinnant's `civil_from_days`) rather than by `gmtime_r` or a
/// date formatter, and the digits of the last day and the last second are kept, so the lines of one second
/// share their work: worked out each time, the digits took 230 instructions of a request line.
package enum UTCTimestamp {
    /// Bytes written with whole seconds.
    package static let secondsLength = 20
    /// Bytes written with milliseconds.
    package static let millisecondsLength = 24
    /// The seconds from 1970 of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: four-digit years only.
    package static let writableSeconds = -62_135_596_800...253_402_300_799

    /// Writes `seconds` (within ``writableSeconds``), with `milliseconds` when given, at `stamp`; returns
    /// the byte count.
    @discardableResult
    package static func write(seconds: Int, milliseconds: Int? = nil, at stamp: UnsafeMutablePointer<UInt8>) -> Int {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let date = dateDigits(days: days)
        let time = timeDigits(seconds: seconds, secondOfDay: seconds - days * 86_400)
        /// The two digits of `packed` four and zero bits above `shift`, at `position`.
        func pair(_ packed: Int, _ shift: Int, at position: Int) {
            stamp[position] = 0x30 | UInt8(truncatingIfNeeded: packed >> (shift + 4) & 0xF)
            stamp[position + 1] = 0x30 | UInt8(truncatingIfNeeded: packed >> shift & 0xF)
        }
        pair(date, 24, at: 0)
        pair(date, 16, at: 2)
        stamp[4] = 0x2D
        pair(date, 8, at: 5)
        stamp[7] = 0x2D
        pair(date, 0, at: 8)
        stamp[10] = 0x54
        pair(time, 16, at: 11)
        stamp[13] = 0x3A
        pair(time, 8, at: 14)
        stamp[16] = 0x3A
        pair(time, 0, at: 17)
        guard let milliseconds else {
            stamp[19] = 0x5A
            return secondsLength
        }
        stamp[19] = 0x2E
        stamp[20] = 0x30 + UInt8(truncatingIfNeeded: milliseconds / 100)
        stamp[21] = 0x30 + UInt8(truncatingIfNeeded: milliseconds / 10 % 10)
        stamp[22] = 0x30 + UInt8(truncatingIfNeeded: milliseconds % 10)
        stamp[23] = 0x5A
        return millisecondsLength
    }

    /// The last day written and its digits, `days << 32 | yyyymmdd` four bits a digit (-1: none yet).
    private static let lastDate = Atomic<Int>(-1)
    /// The last second written and its time of day's digits, `seconds << 24 | hhmmss` (-1: none yet).
    private static let lastTime = Atomic<Int>(-1)

    /// The digits of `yyyymmdd` for the day `days` after 1970-01-01, four bits each.
    private static func dateDigits(days: Int) -> Int {
        let cached = lastDate.load(ordering: .relaxed)
        if days >= 0, cached >> 32 == days { return cached & 0xFFFF_FFFF }
        let (year, month, day) = civilDate(days: days)
        let digits = packedDigits(year * 10_000 + month * 100 + day, count: 8)
        if days >= 0 { lastDate.store(days << 32 | digits, ordering: .relaxed) }
        return digits
    }

    /// The digits of `hhmmss` for `secondOfDay`, the time of day of `seconds`, four bits each.
    private static func timeDigits(seconds: Int, secondOfDay: Int) -> Int {
        let cached = lastTime.load(ordering: .relaxed)
        if seconds >= 0, cached >> 24 == seconds { return cached & 0xFF_FFFF }
        let clock = secondOfDay / 3600 * 10_000 + secondOfDay / 60 % 60 * 100 + secondOfDay % 60
        let digits = packedDigits(clock, count: 6)
        if seconds >= 0 { lastTime.store(seconds << 24 | digits, ordering: .relaxed) }
        return digits
    }

    /// The last `count` decimal digits of `value`, four bits each, the last in the lowest bits.
    private static func packedDigits(_ value: Int, count: Int) -> Int {
        var remaining = value
        var packed = 0
        for position in 0..<count {
            packed |= (remaining % 10) << (4 * position)
            remaining /= 10
        }
        return packed
    }

    /// Year, month and day of the day `days` after 1970-01-01.
    private static func civilDate(days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
