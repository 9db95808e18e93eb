import Foundation

/// The rule for handler modules: they build against the handler API alone. A dependency on another module of
/// this package, or a mention of one, would reach what the API keeps from them (the ledger, tokens, secrets,
/// content files); `@testable` or `@_private` would open the API's own internals (every module of a debug build
/// is compiled for testing), and `@_silgen_name`, `@_extern` or `@_dynamicReplacement` would reach them by symbol.
///
/// A handler module may not use macros or binary targets (its dependencies, direct or not, include none): the
/// code a macro writes, and what a binary holds, is not in the sources this check reads, and could name anything.
/// Nor may it be, or reach, code that is not Swift outside the gateway's own packages: C defines any symbol, a
/// function of a shared library the gateway links among them, under a name its preprocessor builds.
/// What it reaches through packages from outside is read too (``OutsideSourceCheck``), and its own sources also
/// by Swift's parser, for the attributes it uses (``isOrdinaryAttribute(_:)``).
///
/// The check reads words, not Swift: any mention of such a module's name or such an attribute, in code,
/// a comment or a string, is refused, so no layout (attributes and names on other lines, comments between
/// them, semicolons, backticks, unusual whitespace) slips an import past it, and the price is at worst a
/// comment to reword. A parser (``SwiftSourceFacts``, which reads outside packages, where strings and comments
/// legitimately name such things) would be more lenient, and nothing here needs that.
struct HandlerCheck {
    let api: String
    let packageModules: Set<String>
    /// This package's package name (`-package-name`).
    let packageName: String
    /// The module names the gateway's packages test with `canImport`, each with a file that tests it.
    let importTested: [String: String]

    /// Whether a handler module may not use the attribute `name`: `@testable`, and every underscored one (the
    /// compiler's unsupported attributes: `@_spi`, `@_private`, `@_silgen_name`, `@_extern`, `@_dynamicReplacement`
    /// reach past the public API, and the toolchain's `@_SwiftifyImport` writes a string's text into the module as
    /// code, escapes decoded, where this check never reads it).
    static func isForbiddenAttribute(_ name: Substring) -> Bool { name == "testable" || name.hasPrefix("_") }

    /// The language's attributes a handler module may use, as Swift reads them: the ordinary ones, which neither
    /// place code nor give it a symbol's name, and any named as a type (a property wrapper, a result builder, a
    /// global actor, `Sendable`). Swift 6.3 accepts others without an experimental flag that reach the whole
    /// binary: `@c(memchr)` replaced libc's `memchr` for every module (the API's header check used it), and
    /// `@used @section(".init_array")` ran a handler's code before `main` (an eighteenth reviewer's).
    static func isOrdinaryAttribute(_ name: String) -> Bool {
        name.first?.isUppercase == true || ordinaryAttributes.contains(name)
    }

    private static let ordinaryAttributes: Set = [
        "autoclosure", "available", "backDeployed", "concurrent", "convention", "discardableResult",
        "dynamicCallable", "dynamicMemberLookup", "escaping", "exclusivity", "frozen", "globalActor", "inlinable",
        "inline", "isolated", "preconcurrency", "propertyWrapper", "requires_stored_property_inits", "resultBuilder",
        "retroactive", "safe", "specialized", "unchecked", "unknown", "unsafe", "usableFromInline",
        "warn_unqualified_access",
    ]

    /// Words a handler module may not say, wherever they stand: a macro declaration (one may be defined as the
    /// toolchain's own, `= #line`), and the toolchain's macros that write code from their arguments, however
    /// spelled (`@Swift._SwiftifyImport`).
    static let forbiddenWords = Set(["macro", "externalMacro"]).union(OutsideSourceCheck.codeWritingMacros)

    /// Every refusal for `handler`, as a compiler diagnostic line.
    func refusals(of handler: Invocation.Handler) -> [String] {
        var refusals: [String] = []
        for dependency in handler.dependencies where dependency != api && packageModules.contains(dependency) {
            refusals.append(
                "error: handler module \(handler.name) depends on \(dependency), a module of this package; a handler "
                    + "module depends on \(api) alone (and on packages outside this one), and is handed the "
                    + "capabilities it declares")
        }
        for macro in handler.macros {
            refusals.append(
                "error: handler module \(handler.name) can use the macros of \(macro); what a macro writes is not "
                    + "in the module's sources, where this check reads what a handler module names")
        }
        for binary in handler.binaries {
            refusals.append(
                "error: handler module \(handler.name) depends on the binary target \(binary); what it holds cannot "
                    + "be read, where this check reads what a handler module reaches")
        }
        for native in handler.nativeTargets {
            refusals.append(
                "error: handler module \(handler.name) reaches \(native.module), a target of \(native.package) that is "
                    + "not Swift (C, C++, Objective-C, assembly, or a system library's headers): the gateway takes such "
                    + "code from its own packages only, since a C definition of a function of a library the gateway "
                    + "links (libfcgi, libpq, SQLite) takes that function's place for the whole binary, the gateway's "
                    + "own calls included; write it in Swift, or use a C library the gateway's packages bring")
        }
        for name in Set(handler.outsidePackageNames) where name == packageName {
            refusals.append(
                "error: handler module \(handler.name) depends on a package from outside whose package name is "
                    + "\(name), this package's own (SwiftPM names both from their folders or URLs, punctuation made _): "
                    + "its modules would see this package's package declarations; rename its folder")
        }
        for module in Set(handler.outsideModules).intersection(ToolchainModules.names).sorted() {
            refusals.append(
                "error: handler module \(handler.name) depends on a module named \(module), as the toolchain's own: "
                    + "a build keeps its modules where the compiler looks first, so every module compiled after it, the "
                    + "gateway's included, would take it for the toolchain's; rename it")
        }
        for module in Set(handler.outsideModules).subtracting(ToolchainModules.names).sorted() {
            guard let file = importTested[module] else { continue }
            refusals.append(
                "error: handler module \(handler.name) depends on a module named \(module), which the gateway's "
                    + "packages test for with canImport (\(file)): every module compiled after it, the gateway's "
                    + "included, would import it in place of what it imports without it; rename it")
        }
        let mangled = MangledReferences(modules: packageModules)
        // Each file read and parsed once; the types the module declares come from all of them.
        let parsed = handler.sources.map { file in
            let data = FileManager.default.contents(atPath: file)
            let text = data.map { String(decoding: $0, as: UTF8.self) }
            return (file, data, text, text.map { SwiftSourceFacts($0, harmlessFlags: []) })
        }
        let declared = Set(parsed.flatMap { $0.3?.declaredTypes ?? [] })
        for (file, data, text, facts) in parsed {
            guard let data, let text, let facts else {
                refusals.append("\(file): error: handler module \(handler.name): this source file cannot be read")
                continue
            }
            let place = { (line: Int) in "\(file):\(line): error: handler module \(handler.name)" }
            if !facts.readable {
                refusals.append(
                    "\(place(1)): the Swift parser cannot read this file without errors, so this check cannot read "
                        + "the attributes it uses")
            }
            for attribute in facts.attributes where !Self.isOrdinaryAttribute(attribute.name) {
                let refusal =
                    "\(place(attribute.line)) uses @\(attribute.name); a handler module uses the language's ordinary "
                    + "attributes only (and those named as a type), none that places its code or names a symbol"
                if !refusals.contains(refusal) { refusals.append(refusal) }
            }
            for conformance in facts.conformances where !Self.isOwn(conformance, declared: declared) {
                refusals.append(
                    "\(place(conformance.line)) makes \(conformance.type), a type it does not declare, conform to "
                        + "\(conformance.protocols.joined(separator: " & ")): a conformance holds in the whole binary, "
                        + "so the gateway's own values would run the module's code wherever they are printed, "
                        + "encoded or compared; conform a type or protocol of the module's own")
            }
            for (module, line) in mangled.find(in: Array(data)) {
                refusals.append(
                    "\(place(line)) names a symbol of \(module), a module of this package, by its mangled name; a "
                        + "handler module sees \(api)'s public API only")
            }
            for (word, line) in Self.words(in: text) {
                if word.hasPrefix("@"), Self.isForbiddenAttribute(word.dropFirst()) {
                    refusals.append(
                        "\(place(line)) uses \(word); a handler module sees \(api)'s public API only")
                } else if let library = OutsideSourceCheck.gatewayLibrary(named: Substring(word)) {
                    refusals.append(
                        "\(place(line)) names \(word), \(library): the gateway links it, and its process-wide "
                            + "hooks reach what the gateway does with it; a handler module sees \(api)'s public API "
                            + "only")
                } else if OutsideSourceCheck.runtimeReflectionNames.contains(where: { word.hasPrefix($0) }) {
                    refusals.append(
                        "\(place(line)) names \(word), the Swift runtime's reflection or type lookup (by dlsym, say), "
                            + "which reads what a value's mirror keeps hidden or finds the gateway's own types; a "
                            + "handler module sees \(api)'s public API only")
                } else if Self.forbiddenWords.contains(word.hasPrefix("@") ? String(word.dropFirst()) : word) {
                    refusals.append(
                        "\(place(line)) says \(word): a handler module declares no macro and uses none of the "
                            + "toolchain's that write code from their arguments (what a macro writes is not in the "
                            + "sources this check reads); reword a comment that says it")
                } else if word != api, word != handler.name, packageModules.contains(word) {
                    refusals.append(
                        "\(place(line)) names \(word), a module of this package; a handler module imports \(api) "
                            + "alone, and is handed the capabilities it declares")
                }
            }
        }
        return refusals + OutsideSourceCheck(api: api, packageModules: packageModules).refusals(of: handler)
    }

    /// Whether a conformance stays within the module: the extended type, or every protocol, is one the module
    /// declares (a qualified name's first part: `Plain.Inner`; `GatewayHandlerAPI.ConfigReader` is a module's).
    static func isOwn(_ conformance: SwiftSourceFacts.Conformance, declared: Set<String>) -> Bool {
        let own = { (name: String) in declared.contains(String(name.prefix { $0 != "." })) }
        return own(conformance.type) || conformance.protocols.allSatisfy(own)
    }

    /// The identifiers of `text` (backticks dropped) and its attributes (`@` and the name that follows, after
    /// any whitespace), each with its line, counting LF, CR and CR LF as line ends.
    static func words(in text: String) -> [(word: String, line: Int)] {
        var words: [(word: String, line: Int)] = []
        var line = 1
        var current = ""
        var attribute = false
        var startLine = 1
        var previous: Character?
        func flush() {
            if !current.isEmpty { words.append((attribute ? "@" + current : current, startLine)) }
            current = ""
            attribute = false
        }
        for character in text {
            let isLineEnd = character == "\n" || character == "\r" || character == "\r\n"
            if isLineEnd, !(character == "\n" && previous == "\r") { line += 1 }
            previous = character
            if character == "`" { continue }
            if character == "_" || character.isLetter || character.isNumber {
                if current.isEmpty { startLine = line }
                current.append(character)
            } else if character == "@" {
                flush()
                attribute = true
            } else if character.isWhitespace, current.isEmpty, attribute {
                continue  // `@` and the attribute's name may stand apart
            } else {
                flush()
            }
        }
        flush()
        return words
    }
}
