import ArgumentParser
import Foundation

/// A moment given on the command line: RFC 3339 (`2026-12-31T00:00:00Z`) or a span from now (`90m`, `48h`,
/// `30d`), counted ahead or back as `Direction` says.
struct CommandLineMoment<Direction: SpanDirection>: ExpressibleByArgument, Sendable {
    let date: Date

    init?(argument: String) {
        if let date = try? Date(argument, strategy: .iso8601) {
            self.date = date
            return
        }
        guard let span = TimeSpan(argument) else { return nil }
        date = Date(timeIntervalSinceNow: Direction.sign * span.seconds)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// A moment ahead of now, such as when a free grant ends.
typealias FutureTime = CommandLineMoment<Ahead>
/// A moment back from now, such as where a history of notifications starts.
typealias PastTime = CommandLineMoment<Back>

/// Which way a ``TimeSpan`` counts from now.
protocol SpanDirection: Sendable {
    static var sign: Double { get }
}

/// Spans count ahead of now.
enum Ahead: SpanDirection {
    static let sign = 1.0
}

/// Spans count back from now.
enum Back: SpanDirection {
    static let sign = -1.0
}
