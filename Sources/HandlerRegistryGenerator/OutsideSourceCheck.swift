import Foundation

/// The source files of the packages from outside that a handler module depends on, directly or not: they are
/// compiled into the same binary, so they may not reach into this package either. A file of any language is
/// refused when it names a symbol of this package's modules by its mangled name (`@_silgen_name`, `@_extern`,
/// a C declaration, `dlsym`); a Swift file when it imports a module of this package other than the handler API,
/// opens a module of this package or the standard library's internals (`@testable`, `@_private` or `@_spi`
/// before its `import`: the standard library's reflection SPI writes any stored property), or replaces a
/// function (`@_dynamicReplacement`), spells a symbol's name with escapes, or is the manifest of a package that
/// applies a build plugin (what a plugin writes is in no source file) or passes compiler flags of its own other
/// than those that only change diagnostics (`unsafeFlags`: `-package-name` with this package's name opens its
/// `package` declarations). Comments are dropped before a Swift file
/// is read, so none can stand between an attribute and its `import`; adjacent string literals are joined before
/// names are looked for, as C joins them. Other uses of those attributes, common in well-kept packages (a
/// package's own SPI, `@_silgen_name` of the runtime's functions), pass. A C file that builds a name through the
/// preprocessor is not read that far: such a declaration stands out in review.
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
            for (module, line) in mangled.find(in: Self.joiningAdjacentLiterals(Array(data))) {
                refusals.append(
                    "\(place(line)) names a symbol of \(module), a module of this package, by its mangled name; a "
                        + "handler module reaches this package through \(api)'s public API only")
            }
            guard file.hasSuffix(".swift") else { continue }
            // Read with regex literals and without: a quote inside `#/…/#` would otherwise open a string that hides
            // what follows, and a span mistaken for a regex would hide what is inside it.
            let text = String(decoding: data, as: UTF8.self)
            var found: [String] = []
            for tokens in [SwiftTokens(text), SwiftTokens(text, regexLiterals: false)] {
                for refusal in swiftRefusals(tokens, place: place)
                    + (Self.isManifest(file) ? manifestRefusals(tokens, place: place) : [])
                where !found.contains(refusal) {
                    found.append(refusal)
                }
            }
            refusals += found
        }
        return refusals
    }

    /// What the manifest of an outside package may not do: apply a build plugin, or pass compiler flags.
    private func manifestRefusals(_ tokens: SwiftTokens, place: (Int) -> String) -> [String] {
        var refusals: [String] = []
        if let plugins = tokens.tokens.first(where: { $0.kind == .word && $0.text == "plugins" }) {
            refusals.append(
                "\(place(plugins.line)) is the manifest of a package this module reaches, and applies a build "
                    + "plugin (plugins:); what a plugin writes is not in the sources this check reads")
        }
        for (line, problem) in Self.unknownFlags(in: tokens) {
            refusals.append(
                "\(place(line)) is the manifest of a package this module reaches, and passes \(problem) "
                    + "(unsafeFlags): a flag such as -package-name would open this package's package declarations "
                    + "to it")
        }
        return refusals
    }

    /// What a Swift file of an outside package may not do, read from its tokens (comments dropped, so no comment
    /// can stand between an attribute and the `import` it opens).
    private func swiftRefusals(_ source: SwiftTokens, place: (Int) -> String) -> [String] {
        var refusals: [String] = []
        let tokens = source.tokens
        for (index, token) in tokens.enumerated() {
            switch (token.kind, token.text) {
            case (.attribute, "@_dynamicReplacement"):
                refusals.append("\(place(token.line)) uses @_dynamicReplacement, which replaces a function at run time")
            case (.attribute, "@_silgen_name"), (.attribute, "@_extern"):
                // The name is read for this package's symbols; an escape would spell one unread.
                let end = source.skippingGroup(at: index + 1)
                if tokens[min(index + 1, end)..<end].contains(where: { $0.kind == .string && $0.text.contains("\\") }) {
                    refusals.append(
                        "\(place(token.line)) spells a symbol's name with escapes in \(token.text), which this check "
                            + "cannot read")
                }
            case (.attribute, "@testable"), (.attribute, "@_private"), (.attribute, "@_spi"):
                // The attributes before a declaration, each with its arguments, then what they apply to.
                var next = source.skippingGroup(at: index + 1)
                while next < tokens.count, tokens[next].kind == .attribute { next = source.skippingGroup(at: next + 1) }
                if let module = Self.importedModule(at: next, in: tokens), opensInternals(module) {
                    refusals.append(
                        "\(place(token.line)) imports \(module) with \(token.text), which opens what it keeps inside")
                }
            case (.word, "import"):
                if let module = Self.importedModule(at: index, in: tokens), module != api,
                    packageModules.contains(module)
                {
                    refusals.append(
                        "\(place(token.line)) imports \(module), a module of this package; a handler module reaches "
                            + "this package through \(api) alone")
                }
            default: continue
            }
        }
        return refusals
    }

    /// The compiler flags well-kept packages pass in `unsafeFlags`, which change diagnostics only.
    static let harmlessFlags: Set<String> = [
        "-Xfrontend", "-require-explicit-sendable", "-warnings-as-errors", "-require-explicit-availability",
        "-require-explicit-availability=error",
    ]

    /// Each `unsafeFlags` in a manifest's `tokens` that passes more than ``harmlessFlags``, written out as plain
    /// literals (a flag built at run time, a variable or an escape cannot be read, so it is refused as well): SwiftPM
    /// lets any dependency pass flags since Swift 6.2, and `-package-name` with this package's name compiles a
    /// dependency as a member of this package.
    static func unknownFlags(in source: SwiftTokens) -> [(line: Int, problem: String)] {
        let tokens = source.tokens
        var found: [(line: Int, problem: String)] = []
        for (index, token) in tokens.enumerated() where token.kind == .word && token.text == "unsafeFlags" {
            let end = source.skippingGroup(at: index + 1)
            guard end > index + 1 else {
                found.append((token.line, "flags this check cannot read"))
                continue
            }
            // Plain literals, then at most the condition (`.when(…)`) and nothing after it.
            var position = index + 2
            while position < end - 1 {
                let argument = tokens[position]
                if argument.kind == .dot, position + 1 < end, tokens[position + 1].text == "when",
                    source.skippingGroup(at: position + 2) == end - 1
                {
                    break
                }
                let flag = argument.text.dropFirst().dropLast()
                guard argument.kind == .string, argument.text.hasPrefix("\""), !flag.contains("\\"),
                    harmlessFlags.contains(String(flag))
                else {
                    let problem =
                        argument.kind == .string ? "the flag \(argument.text)" : "flags this check cannot read"
                    found.append((argument.line, problem))
                    break
                }
                position += 1
            }
        }
        return found
    }

    /// Whether `file` is a package's manifest (`Package.swift`, `Package@swift-6.0.swift`).
    private static func isManifest(_ file: String) -> Bool {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift"))
    }

    /// `bytes` with adjacent string literals joined as C joins them (`"$s11Gateway" "Core…"`), so a name split
    /// across them is read whole; the line ends between them are kept, so lines still count.
    static func joiningAdjacentLiterals(_ bytes: [UInt8]) -> [UInt8] {
        var joined: [UInt8] = []
        joined.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\"") {
                var next = index + 1
                while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: "\"") {
                    joined += bytes[(index + 1)..<next].filter { $0 == 0x0A }
                    index = next + 1
                    continue
                }
            }
            joined.append(bytes[index])
            index += 1
        }
        return joined
    }

    /// The modules of the toolchain whose SPI or internals reach what any value holds (the standard library's
    /// reflection SPI writes any stored property).
    private static let toolchainModules: Set = [
        "Swift", "_Concurrency", "_StringProcessing", "_RegexParser", "_Differentiation", "_Volatile", "SwiftShims",
        "Synchronization", "Distributed", "Observation", "Foundation", "FoundationEssentials",
        "FoundationInternationalization", "Dispatch",
    ]

    /// Whether importing `module` with `@testable`, `@_private` or `@_spi` would open this package's or the
    /// toolchain's internals (a package opening its own modules for its tests is its business).
    private func opensInternals(_ module: String) -> Bool {
        Self.toolchainModules.contains(module) || packageModules.contains(module)
    }

    /// The module of the `import` at `index` (`import struct Module.Type` names `Module`), if `index` is one.
    private static func importedModule(at index: Int, in tokens: [SwiftTokens.Token]) -> String? {
        guard index < tokens.count, tokens[index].kind == .word, tokens[index].text == "import" else { return nil }
        return tokens[(index + 1)...].first { $0.kind == .word && !importKinds.contains($0.text) }?.text
    }
}
