import Foundation

/// A moment as the support page shows it: the date and time in UTC, then how long ago (or how soon) it is, so
/// that a support person need not work out either.
struct SupportTime {
    let date: Date
    let now: Date

    /// `2026-11-24 09:15 UTC (3 days ago)`.
    var text: String { "\(Self.utc(date)) UTC (\(age))" }

    /// The date and time in UTC, to the minute.
    static func utc(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let pad = { (value: Int?) in String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 0)-\(pad(parts.month))-\(pad(parts.day)) \(pad(parts.hour)):\(pad(parts.minute))"
    }

    /// `just now`, `5 minutes ago`, `3 days ago`, `in 25 days`.
    var age: String {
        let seconds = now.timeIntervalSince(date)
        let span = abs(seconds)
        guard span >= 60 else { return "just now" }
        let (count, unit): (Int, String) =
            switch span {
            case ..<3_600: (Int(span / 60), "minute")
            case ..<86_400: (Int(span / 3_600), "hour")
            case ..<(86_400 * 60): (Int(span / 86_400), "day")
            case ..<(86_400 * 730): (Int(span / (86_400 * 30.44)), "month")
            default: (Int(span / (86_400 * 365.25)), "year")
            }
        let amount = "\(count) \(unit)\(count == 1 ? "" : "s")"
        return seconds >= 0 ? "\(amount) ago" : "in \(amount)"
    }
}
