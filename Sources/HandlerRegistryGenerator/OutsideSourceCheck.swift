import Foundation

/// The source files of the packages from outside that a handler module depends on, directly or not: they are
/// compiled into the same binary, so they may not reach into this package either. A file of any language is
/// refused when it names a symbol of this package's modules by its mangled name (`@_silgen_name`, `@_extern`,
/// a C declaration, `dlsym`); a Swift file when it imports a module of this package other than the handler API,
/// opens a module of this package or the standard library's internals (`@testable`, `@_private` or `@_spi`
/// before its `import`: the standard library's reflection SPI writes any stored property), or replaces a
/// function (`@_dynamicReplacement`). Other uses of those attributes, common in well-kept packages (a package's
/// own SPI, `@_silgen_name` of the runtime's functions), pass.
struct OutsideSourceCheck {
    let api: String
    let packageModules: Set<String>

    /// Words that may stand between `import` and the module's name (`import struct Module.Type`).
    private static let importKinds: Set<String> = [
        "struct", "class", "enum", "protocol", "typealias", "func", "var", "let", "actor",
    ]

    func refusals(of handler: Invocation.Handler) -> [String] {
        var refusals: [String] = []
        let mangled = MangledReferences(modules: packageModules)
        for file in handler.outsideSources where !file.isEmpty {
            guard let data = FileManager.default.contents(atPath: file) else {
                refusals.append(
                    "\(file): error: handler module \(handler.name) depends on this file, which cannot be read")
                continue
            }
            let place = { (line: Int) in
                "\(file):\(line): error: handler module \(handler.name) depends on this file, which"
            }
            for (module, line) in mangled.find(in: Array(data)) {
                refusals.append(
                    "\(place(line)) names a symbol of \(module), a module of this package, by its mangled name; a "
                        + "handler module reaches this package through \(api)'s public API only")
            }
            guard file.hasSuffix(".swift") else { continue }
            let words = HandlerCheck.words(in: String(decoding: data, as: UTF8.self))
            for (index, (word, line)) in words.enumerated() {
                if word == "@_dynamicReplacement" {
                    refusals.append("\(place(line)) uses @_dynamicReplacement, which replaces a function at run time")
                } else if ["@testable", "@_private", "@_spi"].contains(word),
                    let module = Self.importedModule(after: index, in: words), opensInternals(module)
                {
                    refusals.append("\(place(line)) imports \(module) with \(word), which opens what it keeps inside")
                } else if word == "import", let module = Self.importedModule(after: index - 1, in: words),
                    module != api, packageModules.contains(module)
                {
                    refusals.append(
                        "\(place(line)) imports \(module), a module of this package; a handler module reaches this "
                            + "package through \(api) alone")
                }
            }
        }
        return refusals
    }

    /// Whether importing `module` with `@testable`, `@_private` or `@_spi` would open this package's or the
    /// standard library's internals.
    private func opensInternals(_ module: String) -> Bool {
        module == "Swift" || module.hasPrefix("_") || packageModules.contains(module)
    }

    /// The module an `import` within a few words after `index` names (an attribute's arguments come between).
    private static func importedModule(after index: Int, in words: [(word: String, line: Int)]) -> String? {
        guard
            let importIndex = words.indices.dropFirst(index + 1).prefix(8).first(where: { words[$0].word == "import" })
        else { return nil }
        return words[(importIndex + 1)...].first { !importKinds.contains($0.word) }?.word
    }
}
