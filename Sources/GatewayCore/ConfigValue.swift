import Yams

/// A config document as a tree: what YAML (or an environment override) said, before any typing.
public indirect enum ConfigValue: Sendable, Equatable {
    case null
    case scalar(String)
    case sequence([ConfigValue])
    case mapping([String: ConfigValue])

    /// Parses YAML text. Throws ``ConfigProblems`` naming `source` when the text is not YAML or a key is
    /// not a plain string.
    public static func parse(yaml: String, source: String) throws -> ConfigValue {
        let node: Node?
        do {
            node = try Yams.compose(yaml: yaml)
        } catch {
            throw ConfigProblems([ConfigProblem(keyPath: source, message: "not valid YAML: \(error)")])
        }
        guard let node else { return .null }
        return try ConfigValue(node, path: source)
    }

    private init(_ node: Node, path: String) throws {
        switch node {
        case .scalar(let scalar):
            let isNull = scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
            self = isNull ? .null : .scalar(scalar.string)
        case .sequence(let sequence):
            self = .sequence(
                try sequence.enumerated().map { try ConfigValue($0.element, path: "\(path)[\($0.offset)]") }
            )
        case .mapping(let mapping):
            var entries: [String: ConfigValue] = [:]
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    throw ConfigProblems([ConfigProblem(keyPath: path, message: "keys must be plain strings")])
                }
                entries[keyScalar.string] = try ConfigValue(value, path: "\(path).\(keyScalar.string)")
            }
            self = .mapping(entries)
        case .alias:
            throw ConfigProblems([ConfigProblem(keyPath: path, message: "YAML aliases are not supported")])
        }
    }

    /// The value at `key` when this is a mapping.
    public subscript(key: String) -> ConfigValue? {
        if case .mapping(let entries) = self { return entries[key] }
        return nil
    }
}
