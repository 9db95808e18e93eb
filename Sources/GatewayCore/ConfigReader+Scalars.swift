import Foundation

extension ConfigReader {
    /// The string at `key`, or nil when absent. A non-scalar value is a problem.
    public func string(_ key: String) -> String? {
        switch value(key) {
        case nil: return nil
        case .scalar(let text): return text
        default:
            report(key, "must be a single value")
            return nil
        }
    }

    /// The string at `key`, or `defaultValue` when absent.
    public func string(_ key: String, default defaultValue: String) -> String {
        string(key) ?? defaultValue
    }

    /// The non-empty string at `key`; records "is required" when it is absent or empty.
    public func requiredString(_ key: String, why: String = "is required") -> String? {
        guard let text = string(key), !text.isEmpty else {
            report(key, why)
            return nil
        }
        return text
    }

    /// The integer at `key` within `range`, or `defaultValue` when absent or wrong.
    public func int(_ key: String, default defaultValue: Int, in range: ClosedRange<Int>) -> Int {
        guard let text = string(key) else { return defaultValue }
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else {
            report(key, "must be a whole number, not \"\(text)\"")
            return defaultValue
        }
        guard range.contains(number) else {
            report(key, "must be between \(range.lowerBound) and \(range.upperBound), not \(number)")
            return defaultValue
        }
        return number
    }

    /// The boolean at `key` (true/false, yes/no, on/off, 1/0), or `defaultValue`.
    public func bool(_ key: String, default defaultValue: Bool) -> Bool {
        guard let text = string(key) else { return defaultValue }
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default:
            report(key, "must be true or false, not \"\(text)\"")
            return defaultValue
        }
    }

    /// The choice at `key`, one of `Choice`'s raw values; nil when absent, or unknown (reported).
    public func choice<Choice: RawRepresentable & CaseIterable>(_ key: String) -> Choice?
    where Choice.RawValue == String {
        guard let text = string(key) else { return nil }
        if let choice = Choice(rawValue: text) { return choice }
        let choices = Choice.allCases.map(\.rawValue).joined(separator: ", ")
        report(key, "must be one of \(choices), not \"\(text)\"")
        return nil
    }

    /// The choice at `key`, or `defaultValue` when it is absent or unknown (reported).
    public func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, default defaultValue: Choice) -> Choice
    where Choice.RawValue == String {
        choice(key) ?? defaultValue
    }

    /// The list of strings at `key`; an environment override may be YAML flow (`[a, b]`) or `a,b`.
    public func stringList(_ key: String) -> [String] {
        switch value(key) {
        case nil: return []
        case .scalar(let text):
            let inner = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
            return inner.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
                .filter { !$0.isEmpty }
        case .sequence(let items):
            return items.enumerated().compactMap { index, item in
                guard case .scalar(let text) = item else {
                    report("\(key)[\(index)]", "must be a single value")
                    return nil
                }
                return text
            }
        default:
            report(key, "must be a list")
            return []
        }
    }

    /// The path at `key`, made absolute against ``baseDirectory`` when relative; `defaultValue` when absent.
    public func path(_ key: String, default defaultValue: String? = nil) -> String? {
        guard let text = string(key) ?? defaultValue, !text.isEmpty else { return nil }
        return resolvePath(text)
    }

    /// `text` made absolute against ``baseDirectory`` when relative.
    public func resolvePath(_ text: String) -> String {
        let url =
            text.hasPrefix("/")
            ? URL(fileURLWithPath: text)
            : URL(fileURLWithPath: baseDirectory)
                .appendingPathComponent(text)
        return url.standardizedFileURL.path
    }
}
