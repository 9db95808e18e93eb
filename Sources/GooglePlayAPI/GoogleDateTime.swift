import Foundation

/// Google's `google-datetime`: RFC 3339 in UTC, with or without fractional seconds (up to nanoseconds).
enum GoogleDateTime {
    static func date(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: false)) {
            return date
        }
        // Foundation reads at most milliseconds: keep three digits of the fraction.
        guard let dot = text.firstIndex(of: "."),
            let zone = text[dot...].firstIndex(where: { !$0.isNumber && $0 != "." })
        else { return nil }
        let fraction = text[text.index(after: dot)..<zone].prefix(3).padding(toLength: 3, withPad: "0", startingAt: 0)
        let trimmed = text[..<dot] + "." + fraction + text[zone...]
        return try? Date(String(trimmed), strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

extension KeyedDecodingContainer {
    /// The `google-datetime` at `key`; nil when absent; a decoding error when it is not one.
    func decodeGoogleDate(forKey key: Key) throws -> Date? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = GoogleDateTime.date(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not an RFC 3339 time")
        }
        return date
    }
}
