import Synchronization

/// RFC 3339 timestamps in UTC (`2026-11-22T21:40:00Z`, or `2026-11-22T21:40:00.123Z` with milliseconds),
/// written straight into bytes: every request line carries one, and every verify answer several. The civil
/// date is computed from the day count (Howard Hinnant's `civil_from_days`) rather than by `gmtime_r` or a
/// date formatter.
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
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(days: days)
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
        guard let milliseconds else {
            stamp[19] = 0x5A
            return secondsLength
        }
        stamp[19] = 0x2E
        stamp[20] = 0x30 + UInt8(milliseconds / 100)
        pair(milliseconds % 100, at: 21)
        stamp[23] = 0x5A
        return millisecondsLength
    }

    /// The last day converted and its date, packed as `days << 23 | year << 9 | month << 5 | day` (-1: none
    /// yet): the lines of a day share their date, so it is worked out once a day rather than once a line.
    private static let lastDate = Atomic<Int>(-1)

    /// Year, month and day of the day `days` after 1970-01-01.
    private static func civilDate(days: Int) -> (year: Int, month: Int, day: Int) {
        let cached = lastDate.load(ordering: .relaxed)
        if days >= 0, cached >> 23 == days {
            return (cached >> 9 & 0x3FFF, cached >> 5 & 0xF, cached & 0x1F)
        }
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        if days >= 0 { lastDate.store(days << 23 | year << 9 | month << 5 | day, ordering: .relaxed) }
        return (year, month, day)
    }
}
