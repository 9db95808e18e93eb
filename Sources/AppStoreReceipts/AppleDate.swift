import Foundation

/// Apple's verifyReceipt dates: `*_ms` fields (string or number, sometimes fractional), or the plain field
/// in iOS 6 shapes, which holds either milliseconds or `2014-06-28 14:47:53 Etc/GMT`.
enum AppleDate {
    /// The date `name` in `fields`: `<name>_ms` first, then `<name>` itself.
    static func read(_ name: String, in fields: JSONValue) -> Date? {
        if let date = milliseconds(fields["\(name)_ms"]) { return date }
        guard let plain = fields[name] else { return nil }
        if let date = milliseconds(plain) { return date }
        guard let text = plain.text else { return nil }
        return parseGMT(text)
    }

    /// A date sent as milliseconds since 1970 (a number or a numeric string).
    static func milliseconds(_ value: JSONValue?) -> Date? {
        value?.double.map { Date(timeIntervalSince1970: $0 / 1000) }
    }

    /// `yyyy-MM-dd HH:mm:ss Etc/GMT` (also with `GMT` or `UTC`, or a `T` between date and time).
    static func parseGMT(_ text: String) -> Date? {
        var parts = text.split(separator: " ")
        if parts.count == 1 { parts = text.split(separator: "T") }
        guard parts.count >= 2 else { return nil }
        if parts.count == 3, !["Etc/GMT", "GMT", "UTC"].contains(String(parts[2])) { return nil }
        let day = parts[0].split(separator: "-").compactMap { Int($0) }
        let time = parts[1].split(separator: ":").compactMap { Int($0) }
        guard day.count == 3, time.count == 3 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (day[0], day[1], day[2])
        (components.hour, components.minute, components.second) = (time[0], time[1], time[2])
        return utcCalendar.date(from: components)
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
