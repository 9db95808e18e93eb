import GatewayCore
import Yams

extension ConfigValue {
    /// Parses YAML text. Throws ``ConfigProblems`` naming `source` when the text is not YAML or a key is
    /// not a plain string.
    package static func parse(yaml: String, source: String) throws(ConfigProblems) -> ConfigValue {
        let node: Node?
        do {
            node = try Yams.compose(yaml: yaml)
        } catch {
            throw ConfigProblems([ConfigProblem(keyPath: source, message: "not valid YAML: \(error)")])
        }
        guard let node else { return .null }
        return try ConfigValue(node, path: source)
    }

    private init(_ node: Node, path: String) throws(ConfigProblems) {
        switch node {
        case .scalar(let scalar):
            let isNull = scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
            self = isNull ? .null : .scalar(scalar.string)
        case .sequence(let sequence):
            var items: [ConfigValue] = []
            for (index, element) in sequence.enumerated() {
                items.append(try ConfigValue(element, path: "\(path)[\(index)]"))
            }
            self = .sequence(items)
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
}

extension ConfigReader {
    /// A reader for the YAML document `text` (named `source` in problems), whose environment overrides of
    /// lists may be YAML flow syntax.
    package init(yaml text: String, source: String, baseDirectory: String, environment: [String: String])
        throws(ConfigProblems)
    {
        self.init(
            document: try ConfigValue.parse(yaml: text, source: source), yamlBaseDirectory: baseDirectory,
            environment: environment)
    }

    /// A reader for `document`, parsed from YAML.
    package init(document: ConfigValue, yamlBaseDirectory baseDirectory: String, environment: [String: String]) {
        self.init(
            document: document, baseDirectory: baseDirectory, environment: environment,
            parseList: { text in try? ConfigValue.parse(yaml: text, source: "") })
    }
}
