/// One thing wrong with a config: where (a key path such as `server.listen` or `catalog.yaml: products[2].id`)
/// and why.
public struct ConfigProblem: Sendable, Hashable, CustomStringConvertible {
    public let keyPath: String
    public let message: String

    public init(keyPath: String, message: String) {
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String { "\(keyPath): \(message)" }
}

/// Every problem found in one attempt to load a config; thrown when there is at least one.
public struct ConfigProblems: Error, Sendable, CustomStringConvertible {
    public let problems: [ConfigProblem]

    public init(_ problems: [ConfigProblem]) { self.problems = problems }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
