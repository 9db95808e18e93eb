import ArgumentParser
import Foundation

/// A moment given on the command line: RFC 3339 (`2026-12-31T00:00:00Z`) or a span ahead of now (`90m`, `48h`,
/// `30d`).
struct FutureTime: ExpressibleByArgument, Sendable {
    let date: Date

    init?(argument: String) {
        if let date = try? Date(argument, strategy: .iso8601) {
            self.date = date
            return
        }
        guard let span = TimeSpan(argument) else { return nil }
        date = Date(timeIntervalSinceNow: span.seconds)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// A span of time as the command line writes it: a number and `m`, `h` or `d`.
struct TimeSpan: Sendable {
    let seconds: TimeInterval

    init?(_ text: String) {
        let units: [Character: Double] = ["m": 60, "h": 3_600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Double(text.dropLast()), count >= 0 else {
            return nil
        }
        seconds = count * unit
    }
}
