import GatewayConcurrency
import GatewayCore
import Logging

/// The `log` section: how much the process says, and about which requests.
package struct LogSettings: Sendable, Equatable {
    /// The least severe level printed (`level`: trace, debug, info, notice, warning, error, critical).
    package var level: Logger.Level
    /// One line per answered request (`requests`, default true): id, route, status, duration, and the
    /// environment and product when the route knows them.
    package var requests: Bool
    /// Requests slower than this are logged at warning even when `requests` is off (`slow_request_ms`;
    /// 0 turns it off).
    package var slowRequest: Duration? { didSet { slowNanoseconds = Self.nanoseconds(slowRequest) } }
    /// `slowRequest` as the request path compares it, worked out once.
    private(set) var slowNanoseconds: Int
    /// How long a serving process lets request lines gather before writing them in one go (`flush_ms`,
    /// default 5; 0 writes each line as it is made). Any other line is written at once, after them.
    package var flushInterval: Duration?

    package init(level: Logger.Level, requests: Bool, slowRequest: Duration?, flushInterval: Duration? = nil) {
        self.level = level
        self.requests = requests
        self.slowRequest = slowRequest
        self.flushInterval = flushInterval
        slowNanoseconds = Self.nanoseconds(slowRequest)
    }

    private static func nanoseconds(_ limit: Duration?) -> Int { limit.map { Int($0.nanoseconds) } ?? .max }

    /// Reads the `log` scope, recording problems in `reader`.
    package init(_ reader: ConfigReader) {
        let text = reader.string("level", default: "info")
        level = Logger.Level(rawValue: text) ?? .info
        if Logger.Level(rawValue: text) == nil {
            let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            reader.report("level", "\"\(text)\" is not a log level; use one of \(names)")
        }
        requests = reader.bool("requests", default: true)
        let slowMilliseconds = reader.int("slow_request_ms", default: 1000, in: 0...3_600_000)
        slowRequest = slowMilliseconds > 0 ? .milliseconds(slowMilliseconds) : nil
        slowNanoseconds = Self.nanoseconds(slowRequest)
        let flushMilliseconds = reader.int("flush_ms", default: 5, in: 0...60_000)
        flushInterval = flushMilliseconds > 0 ? .milliseconds(flushMilliseconds) : nil
    }
}
