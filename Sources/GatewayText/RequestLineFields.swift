import Logging

/// The fields of a request's log line, in key order: `duration_ms`, `method`, `request-id`, `route`,
/// `status`. Written straight into a ``LogLine`` on the request path, or into swift-log metadata (where they
/// win over an answer's own fields of the same name) when the line goes through a logger. In the module of
/// ``LogLine`` so that writing the line is one specialised, inlined piece: from another module each field
/// was a call through a witness table (0.6% of a catalog request's instructions with the log on).
package struct RequestLineFields {
    let method: String
    let requestId: String
    let route: String
    let status: Int
    let nanoseconds: Int

    package init(method: String, requestId: String, route: String, status: Int, nanoseconds: Int) {
        self.method = method
        self.requestId = requestId
        self.route = route
        self.status = status
        self.nanoseconds = nanoseconds
    }

    package func add<Fields: LogFields & ~Copyable>(to fields: inout Fields) {
        fields.add(plain: "duration_ms", nanoseconds / 1000, fractionDigits: 3)
        fields.add(plain: "method", method)
        fields.add(plain: "request-id", requestId)
        fields.add(plain: "route", route)
        fields.add(plain: "status", status, fractionDigits: 0)
    }

    /// Writes the line to `output` with the answer's fields merged in key order: a slow request's warning at
    /// once, an ordinary request's line gathered with others (and built in stack space).
    package func write(level: Logger.Level, slow: Bool, answerFields: Logger.Metadata, to output: LogOutput) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { scratch in
            let line =
                slow
                ? LogLine(level: level, message: "slow request")
                : LogLine(level: level, plainMessage: "request", scratch: scratch)
            if answerFields.isEmpty {
                var line = line
                add(to: &line)
                line.write(to: output, gathered: !slow)
            } else {
                var merged = MergedLineFields(line, answerFields: answerFields)
                add(to: &merged)
                merged.finished().write(to: output, gathered: !slow)
            }
        }
    }
}
