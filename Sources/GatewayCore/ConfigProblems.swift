/// One thing wrong with a config: where (a key path such as `server.listen` or `catalog.yaml: products[2].id`,
/// and the environment variable that gave the value, if one did), why, and whether it stops the config from
/// loading (an error) or only deserves a look (a warning: a key nothing reads, a route that cannot answer).
public struct ConfigProblem: Sendable, Hashable, CustomStringConvertible {
    public let keyPath: String
    public let message: String
    /// The environment variable whose value the problem is about (`STOREGATE_SERVER_WORKERS`), when the value
    /// came from the environment rather than the file.
    public let variable: String?
    /// A warning does not stop the config from loading; `check-config --strict` counts it as an error.
    public let isWarning: Bool

    public init(keyPath: String, message: String, variable: String? = nil, isWarning: Bool = false) {
        self.keyPath = keyPath
        self.message = message
        self.variable = variable
        self.isWarning = isWarning
    }

    /// `STOREGATE_SERVER_WORKERS (server.workers): must be a whole number, not "lots"`, or `server.workers: …`.
    public var description: String {
        (variable.map { "\($0) (\(keyPath))" } ?? keyPath) + ": " + message
    }

    /// The description after `error:` or `warning:`, as `check-config` prints it.
    public var line: String { (isWarning ? "warning: " : "error: ") + description }
}

/// Every problem found in one attempt to load a config; thrown when there is at least one error, and then
/// carrying the warnings too, so that one run reports everything.
public struct ConfigProblems: Error, Sendable, CustomStringConvertible {
    public let problems: [ConfigProblem]

    public init(_ problems: [ConfigProblem]) { self.problems = problems }

    /// The problems that stop a config from loading.
    public var errors: [ConfigProblem] { problems.filter { !$0.isWarning } }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
