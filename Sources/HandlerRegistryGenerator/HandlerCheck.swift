import Foundation

/// The rule for handler modules: they build against the handler API alone. A dependency on another module of
/// this package, or an import of one, would reach what the API keeps from them (the ledger, tokens, secrets,
/// content files); a `@testable` or private import would reach the API's own internals.
struct HandlerCheck {
    let api: String
    let packageModules: Set<String>

    /// Every refusal for `handler`, as a compiler diagnostic line.
    func refusals(of handler: Invocation.Handler) -> [String] {
        var refusals: [String] = []
        for dependency in handler.dependencies where dependency != api && packageModules.contains(dependency) {
            refusals.append(
                "error: handler module \(handler.name) depends on \(dependency), a module of this package; a handler "
                    + "module depends on \(api) alone (and on packages outside this one), and is handed the "
                    + "capabilities it declares")
        }
        for file in handler.sources {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                refusals.append("\(file): error: handler module \(handler.name): this source file cannot be read")
                continue
            }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let found = Self.importedModule(in: line) else { continue }
                let place = "\(file):\(index + 1): error: handler module \(handler.name)"
                if found.isPrivileged {
                    refusals.append(
                        "\(place) imports \(found.module) with \(found.attribute); a handler module sees the public "
                            + "API only")
                } else if found.module != api, packageModules.contains(found.module) {
                    refusals.append(
                        "\(place) imports \(found.module), a module of this package; a handler module imports \(api) "
                            + "alone, and is handed the capabilities it declares")
                }
            }
        }
        return refusals
    }

    /// An import declaration's module, and the attribute that widens it (`@testable`, `@_private`), if any.
    struct Import {
        let module: String
        let attribute: String
        var isPrivileged: Bool { attribute.hasPrefix("@testable") || attribute.hasPrefix("@_private") }
    }

    /// The import `line` declares: `import M`, `import struct M.T`, with attributes (`@testable`,
    /// `@_exported`, `@preconcurrency`, `@_spi(X)`) and an access level (`internal import M`).
    static func importedModule(in line: Substring) -> Import? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
        var attributes: [Substring] = []
        while let word = words.first, word.hasPrefix("@") || Self.accessLevels.contains(String(word)) {
            if word.hasPrefix("@") { attributes.append(word) }
            words = words.dropFirst()
        }
        guard words.first == "import", words.count >= 2 else { return nil }
        words = words.dropFirst()
        if let kind = words.first, Self.importKinds.contains(String(kind)), words.count >= 2 { words = words.dropFirst() }
        guard let path = words.first, let module = path.split(separator: ".").first else { return nil }
        return Import(module: String(module), attribute: attributes.first { $0.hasPrefix("@testable") || $0.hasPrefix("@_private") }.map(String.init) ?? "")
    }

    private static let accessLevels: Set = ["public", "package", "internal", "fileprivate", "private"]
    private static let importKinds: Set = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
}
