import ArgumentParser
import Foundation

/// A moment given on the command line: RFC 3339 (`2026-11-20T08:00:00Z`) or a span back from now (`90m`,
/// `48h`, `7d`).
struct PastTime: ExpressibleByArgument, Sendable {
    let date: Date

    init?(argument: String) {
        if let date = try? Date(argument, strategy: .iso8601) {
            self.date = date
            return
        }
        let units: [Character: Double] = ["m": 60, "h": 3_600, "d": 86_400]
        guard let unit = argument.last.flatMap({ units[$0] }), let count = Double(argument.dropLast()), count >= 0
        else { return nil }
        date = Date(timeIntervalSinceNow: -count * unit)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
