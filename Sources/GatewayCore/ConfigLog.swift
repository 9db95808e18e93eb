import Synchronization

/// What the readers of one config document have found and read; shared by every reader derived from it.
final class ConfigLog: Sendable {
    private struct State {
        var problems: [ConfigProblem] = []
        var used: Set<String> = []
    }

    private let state = Mutex(State())

    func add(_ problem: ConfigProblem) {
        state.withLock { $0.problems.append(problem) }
    }

    var problems: [ConfigProblem] { state.withLock { $0.problems } }

    func markUsed(_ keyPath: String) {
        _ = state.withLock { $0.used.insert(keyPath) }
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
}
