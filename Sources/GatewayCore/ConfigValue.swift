/// A config document as a tree: what YAML (or an environment override) said, before any typing.
public indirect enum ConfigValue: Sendable, Equatable {
    case null
    case scalar(String)
    case sequence([ConfigValue])
    case mapping([String: ConfigValue])

    /// The value at `key` when this is a mapping.
    public subscript(key: String) -> ConfigValue? {
        if case .mapping(let entries) = self { return entries[key] }
        return nil
    }
}
