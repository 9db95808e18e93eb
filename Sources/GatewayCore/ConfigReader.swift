import Foundation
import Synchronization

/// Reads typed settings from one scope of a config document, with environment overrides.
///
/// A key `apple.shared_secret` is overridden by `STOREGATE_APPLE_SHARED_SECRET`; list-valued keys take YAML
/// flow syntax there (`[a, b]`) or a comma-separated list. Readers never throw on a bad value: they record a
/// ``ConfigProblem`` with the full key path and return the default, so one load reports every problem at once.
public struct ConfigReader: Sendable {
    private let node: ConfigValue?
    private let path: String
    /// False inside sequences, whose elements have no environment variable of their own.
    private let overridable: Bool
    private let environment: [String: String]
    private let log: ConfigLog
    /// Reads a list given in the environment (YAML flow syntax); the document's own syntax, supplied by
    /// whoever parsed it, so this module needs no YAML parser.
    private let parseList: @Sendable (String) -> ConfigValue?
    /// The folder relative paths are resolved against: the config file's folder.
    public let baseDirectory: String

    /// A reader for the whole `document`. Only the loader makes one: a handler module gets a reader of its
    /// own section, and no way to read the rest.
    package init(
        document: ConfigValue, baseDirectory: String, environment: [String: String],
        parseList: @escaping @Sendable (String) -> ConfigValue? = { _ in nil }
    ) {
        self.init(
            node: document,
            path: "",
            overridable: true,
            environment: environment,
            log: ConfigLog(),
            parseList: parseList,
            baseDirectory: baseDirectory
        )
    }

    private init(
        node: ConfigValue?,
        path: String,
        overridable: Bool,
        environment: [String: String],
        log: ConfigLog,
        parseList: @escaping @Sendable (String) -> ConfigValue?,
        baseDirectory: String
    ) {
        self.node = node
        self.path = path
        self.overridable = overridable
        self.environment = environment
        self.log = log
        self.parseList = parseList
        self.baseDirectory = baseDirectory
    }

    /// The full key path of `key` in this scope, as problems name it.
    public func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The environment variable that overrides `key`, or nil inside sequences.
    public func environmentVariable(for key: String) -> String? {
        guard overridable else { return nil }
        return "STOREGATE_" + keyPath(key).uppercased().replacingOccurrences(of: ".", with: "_")
    }

    /// The names the environment adds to the mapping at `key`, each by its variable for `leaf`:
    /// `STOREGATE_EVENTS_ENDPOINTS_BACKEND_URL` names `backend` in `events.endpoints` (leaf `url`). Lower case, as
    /// the variables are the keys in upper case.
    package func environmentNames(in key: String, by leaf: String) -> [String] {
        guard let prefix = environmentVariable(for: key).map({ $0 + "_" }) else { return [] }
        let suffix = "_" + leaf.uppercased()
        return environment.keys.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }
            .map { String($0.dropFirst(prefix.count).dropLast(suffix.count)).lowercased() }
            .filter { !$0.isEmpty }.sorted()
    }

    /// A reader for the mapping at `key`.
    public func scoped(_ key: String) -> ConfigReader {
        let child = node?[key]
        if let child, child != .null {
            guard case .mapping = child else {
                report(key, "must be a mapping of keys to values")
                return derived(node: nil, path: keyPath(key), overridable: overridable)
            }
        }
        return derived(node: child, path: keyPath(key), overridable: overridable)
    }

    /// Records a problem at `key` of this scope (or at the scope itself when `key` is nil), naming the
    /// environment variable when the value came from there.
    public func report(_ key: String?, _ message: String) {
        log.add(ConfigProblem(keyPath: key.map(keyPath) ?? path, message: message, variable: setVariable(for: key)))
    }

    /// Records a warning at `key` of this scope (or at the scope itself when `key` is nil): something that does
    /// not stop the config from loading but deserves a look, such as a route that cannot answer as configured.
    public func warn(_ key: String?, _ message: String) {
        log.add(
            ConfigProblem(
                keyPath: key.map(keyPath) ?? path, message: message, variable: setVariable(for: key), isWarning: true))
    }

    /// The environment variable that set `key`, if one did.
    private func setVariable(for key: String?) -> String? {
        guard let key, let variable = environmentVariable(for: key), environment[variable] != nil else { return nil }
        return variable
    }

    /// Every problem recorded so far by this reader and all readers derived from the same document, warnings
    /// included.
    package var problems: [ConfigProblem] { log.problems }

    /// Key paths present in the document that nothing has read: usually typos or settings of disabled routes.
    package var unusedKeys: [String] { log.unusedKeys(in: node ?? .null, root: path) }

    /// A warning for each key nothing has read, with the nearest key its section knows when it looks like a typo.
    package var unusedKeyWarnings: [ConfigProblem] { log.unusedKeyWarnings(in: node ?? .null, root: path) }

    /// A warning for each `STOREGATE_…` variable of the environment that no reader asked for, but those
    /// `ignoring` tells apart.
    package func unusedVariableWarnings(ignoring: (String) -> Bool) -> [ConfigProblem] {
        log.unusedVariableWarnings(in: environment, ignoring: ignoring)
    }

    /// The raw value at `key`, environment first. Marks the key as used.
    public func value(_ key: String) -> ConfigValue? {
        let fullPath = keyPath(key)
        let variable = environmentVariable(for: key)
        log.markUsed(fullPath, variable: variable)
        if let variable, let text = environment[variable] {
            return .scalar(text)
        }
        guard let value = node?[key], value != .null else { return nil }
        return value
    }

    /// Whether the section `key` is configured: present in the document, or given a key by the environment
    /// (`STOREGATE_APPLE_BUNDLE_IDS` configures `apple`). Marks it as used.
    public func hasSection(_ key: String) -> Bool {
        if value(key) != nil { return true }
        guard let prefix = environmentVariable(for: key).map({ $0 + "_" }) else { return false }
        return environment.keys.contains { $0.hasPrefix(prefix) }
    }

    /// The elements of the sequence at `key`, each as a reader scoped to `key[i]`.
    public func sequence(_ key: String) -> [ConfigReader] {
        guard let value = value(key) else { return [] }
        let elements: [ConfigValue]
        switch value {
        case .sequence(let items):
            elements = items
        case .scalar(let text) where environmentVariable(for: key).map { environment[$0] != nil } ?? false:
            // An environment override arrives as text: read it as YAML.
            guard let parsed = parseList(text), case .sequence(let items) = parsed
            else {
                report(key, "the environment override must be a YAML list")
                return []
            }
            elements = items
        default:
            report(key, "must be a list")
            return []
        }
        return elements.enumerated().map { index, element in
            derived(node: element, path: "\(keyPath(key))[\(index)]", overridable: false)
        }
    }

    /// This reader, holding only the environment variables of its own scope: a handler module's reader, which
    /// must not carry the rest of the process's environment (secrets among it) where reflection could read it.
    package func isolated() -> ConfigReader {
        let prefix = environmentVariable(for: "")
        return ConfigReader(
            node: node, path: path, overridable: overridable,
            environment: prefix.map { prefix in environment.filter { $0.key.hasPrefix(prefix) } } ?? [:], log: log,
            parseList: parseList, baseDirectory: baseDirectory)
    }

    private func derived(node: ConfigValue?, path: String, overridable: Bool) -> ConfigReader {
        ConfigReader(
            node: node,
            path: path,
            overridable: overridable,
            environment: environment,
            log: log,
            parseList: parseList,
            baseDirectory: baseDirectory
        )
    }
}
