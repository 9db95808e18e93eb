import struct Foundation.Date

/// Moments as the ledger stores them, milliseconds since 1970: as integers (SQLite's bound values) and in the
/// form rows are written and read as text (both stores convert text to their integer columns, and every text
/// query selects them back as text).
enum LedgerTime {
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    static func date(milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    static func text(_ date: Date) -> String { String(milliseconds(date)) }

    /// The moment in a column read as text; nil for NULL or anything that is not a whole number.
    static func date(_ text: String?) -> Date? { text.flatMap(Int64.init).map { date(milliseconds: $0) } }
}
