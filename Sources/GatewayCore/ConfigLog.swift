import Synchronization

/// What the readers of one config document have found and read; shared by every reader derived from it.
final class ConfigLog: Sendable {
    private struct State {
        var problems: [ConfigProblem] = []
        var used: Set<String> = []
        var variablesAsked: Set<String> = []
    }

    private let state = Mutex(State())

    func add(_ problem: ConfigProblem) {
        state.withLock { $0.problems.append(problem) }
    }

    var problems: [ConfigProblem] { state.withLock { $0.problems } }

    /// Records that `keyPath` was asked for (present or not), and the environment variable that may set it.
    func markUsed(_ keyPath: String, variable: String?) {
        state.withLock {
            $0.used.insert(keyPath)
            if let variable { $0.variablesAsked.insert(variable) }
        }
    }

    /// Leaf and mapping key paths under `node` (located at `root`) that no reader asked for.
    func unusedKeys(in node: ConfigValue, root: String) -> [String] {
        let used = state.withLock { $0.used }
        var unused: [String] = []
        func walk(_ node: ConfigValue, _ path: String) {
            switch node {
            case .mapping(let entries):
                for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
                    walk(value, path.isEmpty ? key : "\(path).\(key)")
                }
            case .sequence(let items) where used.contains(path):
                // A list that was read: its mapping elements may still hold keys nobody asked for.
                for (index, item) in items.enumerated() {
                    if case .mapping = item { walk(item, "\(path)[\(index)]") }
                }
            case .sequence, .scalar, .null:
                if !path.isEmpty, !used.contains(path) { unused.append(path) }
            }
        }
        walk(node, root)
        return unused
    }

    /// Warnings for the keys under `node` that nothing read: an unknown key in a section that was read (with the
    /// nearest key that section knows, when one is near), or a key of a section no enabled route reads.
    func unusedKeyWarnings(in node: ConfigValue, root: String) -> [ConfigProblem] {
        let used = state.withLock { $0.used }
        return unusedKeys(in: node, root: root).map { path in
            let (parent, leaf) = Self.split(path)
            let siblings = used.compactMap { known -> String? in
                let (knownParent, knownLeaf) = Self.split(known)
                return knownParent == parent ? knownLeaf : nil
            }
            guard !siblings.isEmpty else {
                return ConfigProblem(
                    keyPath: path, message: "not used by this build or its enabled routes", isWarning: true)
            }
            let hint = NearestWord.nearest(to: leaf, among: siblings).map { "; did you mean \($0)?" } ?? ""
            return ConfigProblem(keyPath: path, message: "unknown key" + hint, isWarning: true)
        }
    }

    /// Warnings for the `STOREGATE_…` variables of `environment` that no reader asked for: a misspelt variable
    /// changes nothing, silently. `ignoring` tells the variables that are not config keys (`STOREGATE_CONFIG`).
    func unusedVariableWarnings(in environment: [String: String], ignoring: (String) -> Bool) -> [ConfigProblem] {
        let asked = state.withLock { $0.variablesAsked }
        return environment.keys.filter { $0.hasPrefix("STOREGATE_") && !asked.contains($0) && !ignoring($0) }
            .sorted().map { variable in
                let hint = NearestWord.nearest(to: variable, among: Array(asked)).map { "; did you mean \($0)?" } ?? ""
                return ConfigProblem(
                    keyPath: variable,
                    message: "names no config key this build or its enabled routes read" + hint, isWarning: true)
            }
    }

    /// `server.workers` → (`server`, `workers`); `routes[2].path` → (`routes[2]`, `path`).
    private static func split(_ path: String) -> (parent: String, leaf: String) {
        guard let dot = path.lastIndex(of: ".") else { return ("", path) }
        return (String(path[..<dot]), String(path[path.index(after: dot)...]))
    }
}
