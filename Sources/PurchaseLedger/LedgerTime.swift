import struct Foundation.Date

/// Moments as the ledger stores them, milliseconds since 1970, in the form rows are written and read as text
/// (both stores convert text to their integer columns, and every text query selects them back as text).
enum LedgerTime {
    static func text(_ date: Date) -> String { String(Int64((date.timeIntervalSince1970 * 1000).rounded())) }

    /// The moment in a column read as text; nil for NULL or anything that is not a whole number.
    static func date(_ text: String?) -> Date? {
        text.flatMap(Int64.init).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}
