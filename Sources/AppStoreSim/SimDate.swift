import Foundation

/// Fixture dates: `now`, offsets such as `-30d`, `+2h`, `-90s`, `+15m`, or RFC 3339.
enum SimDate {
    static func resolve(_ text: String, now: Date = Date()) -> Date? {
        if text == "now" { return now }
        if let sign = text.first, sign == "+" || sign == "-", let unit = text.last,
            let amount = Double(text.dropFirst().dropLast())
        {
            let seconds: Double
            switch unit {
            case "s": seconds = amount
            case "m": seconds = amount * 60
            case "h": seconds = amount * 3600
            case "d": seconds = amount * 86_400
            default: return nil
            }
            return now.addingTimeInterval(sign == "-" ? -seconds : seconds)
        }
        return try? Date(text, strategy: .iso8601)
    }

    /// Apple's `2014-06-28 14:47:53 Etc/GMT`.
    static func appleGMT(_ date: Date) -> String { format(date, zone: "UTC") + " Etc/GMT" }

    /// Apple's `2014-06-28 07:47:53 America/Los_Angeles`.
    static func applePST(_ date: Date) -> String { format(date, zone: "America/Los_Angeles") + " America/Los_Angeles" }

    private static func format(_ date: Date, zone: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(c.year ?? 1970)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}
