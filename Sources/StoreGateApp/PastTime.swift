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
        guard let span = TimeSpan(argument) else { return nil }
        date = Date(timeIntervalSinceNow: -span.seconds)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
