import Foundation

/// The source files of the packages from outside that a handler module depends on, directly or not: they are
/// compiled into the same binary, so they may not reach into this package either. A file of any language is
/// refused when it names a symbol of this package's modules by its mangled name (`@_silgen_name`, `@_extern`,
/// a C declaration, `dlsym`), or the C API of a library the gateway links for its ledger or its connections
/// (SQLite, libpq, libfcgi: their process-wide hooks, or a function of theirs defined again, reach the
/// gateway's); a Swift file when it imports a module of this package other than the handler API, opens any
/// module's internals (`@testable`, `@_private`), or a module of this package or the standard library with
/// `@_spi` (the standard library's reflection SPI writes any stored property), replaces a function
/// (`@_dynamicReplacement`), gives one a C symbol's name (`@c`, `@_cdecl`, `@_silgen_name` on a definition),
/// places a value in a section other than a debugger's (`@section(".init_array")`), spells a symbol's name with
/// escapes, or is the manifest of a package that applies a build plugin (what a plugin writes is in no source
/// file) or passes compiler flags of its own other than those that only change diagnostics (`unsafeFlags`:
/// `-package-name` with this package's name opens its `package` declarations), or, for a package not the
/// gateway's own, gives its targets C settings (a header search path compiles a module map's headers into a
/// Swift object). A Swift file is read as Swift reads it (``SwiftSourceFacts``, the toolchain's own parser),
/// every `#if` clause included, and refused when Swift cannot read it; mangled names are looked for in every
/// file as written and as a C compiler reads names (``CNames``: escapes decoded, lines spliced, comments
/// dropped, adjacent literals joined). Other uses of those attributes, common in well-kept packages (a
/// package's own SPI, `@_silgen_name` of the runtime's functions), pass. C from a package not the gateway's own
/// is refused whole (``HandlerCheck``), and what the linker makes is checked after the build (storegate-build).
struct OutsideSourceCheck {
    let api: String
    let packageModules: Set<String>

    func refusals(of handler: Invocation.Handler) -> [String] {
        var refusals: [String] = []
        let mangled = MangledReferences(modules: packageModules)
        // The manifests of packages not the gateway's own are read with the rest, once (they are among the files of
        // their packages), and held to one more rule.
        let foreign = Set(handler.foreignManifests.map(Self.standardized))
        var seen: Set<String> = []
        for file in Self.files((handler.outsideSources + handler.foreignManifests).filter { !$0.isEmpty })
        where seen.insert(Self.standardized(file)).inserted {
            guard let data = FileManager.default.contents(atPath: file) else {
                refusals.append(
                    "\(file): error: handler module \(handler.name) depends on this file, which cannot be read")
                continue
            }
            let place = { (line: Int) in
                "\(file):\(line): error: handler module \(handler.name) depends on this file, which"
            }
            // As written, and as a C compiler reads names (escapes, splices, comments between literals).
            var named: [(module: String, line: Int)] = []
            let read = CNames.reading(Array(data))
            for found in mangled.find(in: Array(data)) + mangled.find(in: read)
            where !named.contains(where: { $0 == found }) {
                named.append(found)
            }
            for (symbol, line) in Self.runtimeReflection(in: Array(data)) + Self.runtimeReflection(in: read) {
                let refusal =
                    "\(place(line)) names \(symbol), the Swift runtime's reflection or type lookup, which reads "
                    + "what a value's mirror keeps hidden or finds the gateway's own types"
                if !refusals.contains(refusal) { refusals.append(refusal) }
            }
            for (line, word, library) in Self.gatewayLibraryNames(in: Array(data)) + Self.gatewayLibraryNames(in: read)
            {
                let refusal =
                    "\(place(line)) names \(word), \(library): the gateway links it, and its process-wide hooks, "
                    + "or a function of it defined again, reach what the gateway does with it"
                if !refusals.contains(refusal) { refusals.append(refusal) }
            }
            for (module, line) in named {
                refusals.append(
                    "\(place(line)) names a symbol of \(module), a module of this package, by its mangled name; a "
                        + "handler module reaches this package through \(api)'s public API only")
            }
            if file.hasSuffix(".modulemap") {
                for (name, line) in Self.moduleMapLinks(in: String(decoding: data, as: UTF8.self)) {
                    refusals.append(
                        "\(place(line)) is a module map that links \"\(name)\", which is not a library's name: a "
                            + "name such as \":/path/file.o\" links a file this check never reads")
                }
            }
            guard file.hasSuffix(".swift") else { continue }
            let facts = SwiftSourceFacts(String(decoding: data, as: UTF8.self), harmlessFlags: Self.harmlessFlags)
            guard facts.readable else {
                refusals.append(
                    "\(place(1)) the Swift parser cannot read without errors (in the Swift 5 or 6 language mode, "
                        + "with or without experimental features), so this check cannot read it")
                continue
            }
            refusals += swiftRefusals(facts, place: place)
            if Self.isManifest(file) {
                refusals += manifestRefusals(facts, place: place)
                if foreign.contains(Self.standardized(file)) {
                    refusals += facts.cSettingLines.map { line in
                        "\(file):\(line): error: handler module \(handler.name) reaches the package of this manifest, "
                            + "which gives its targets C settings (cSettings, cxxSettings, headerSearchPath): a Swift "
                            + "target given a header search path compiles the headers of the module maps there into "
                            + "its own object, and C defines any symbol, a function of a library the gateway links "
                            + "among them"
                    }
                }
            }
        }
        return refusals
    }

    /// `paths` with each folder among them (SwiftPM lists a documentation catalog, `Docs.docc`, as one source)
    /// replaced by the files under it, so every file is read and a folder is not taken for an unreadable file.
    private static func files(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                return [path]
            }
            let walk = FileManager.default.enumerator(atPath: path)
            var found: [String] = []
            while let name = walk?.nextObject() as? String {
                var nested: ObjCBool = false
                let inner = path + "/" + name
                if FileManager.default.fileExists(atPath: inner, isDirectory: &nested), !nested.boolValue {
                    found.append(inner)
                }
            }
            return found
        }
    }

    /// `path` with `.` and `..` resolved, as both lists of files spell it.
    private static func standardized(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    /// What the manifest of an outside package may not do: apply a build plugin, or pass compiler flags.
    private func manifestRefusals(_ facts: SwiftSourceFacts, place: (Int) -> String) -> [String] {
        var refusals: [String] = []
        if let line = facts.pluginLines.min() {
            refusals.append(
                "\(place(line)) is the manifest of a package this module reaches, and applies a build "
                    + "plugin (plugins); what a plugin writes is not in the sources this check reads")
        }
        for flags in facts.flagProblems {
            refusals.append(
                "\(place(flags.line)) is the manifest of a package this module reaches, and passes \(flags.problem) "
                    + "(unsafeFlags): a flag such as -package-name would open this package's package declarations "
                    + "to it")
        }
        for link in facts.linkProblems {
            refusals.append(
                "\(place(link.line)) is the manifest of a package this module reaches, and links \(link.problem) "
                    + "(linkedLibrary): a name such as \":/path/file.o\" links a file this check never reads")
        }
        return refusals
    }

    /// The `link` declarations of a module map (`link ":/tmp/blob.o"`, which autolinking hands the linker as
    /// `-l`) that name more than a library, with their lines.
    static func moduleMapLinks(in text: String) -> [(name: String, line: Int)] {
        var found: [(name: String, line: Int)] = []
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let at = words.firstIndex(where: { $0 == "link" }) else { continue }
            let rest = words[(at + 1)...].filter { $0 != "framework" }
            let name = rest.first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? ""
            if !SwiftSourceFacts.isLibraryName(name) { found.append((String(name), index + 1)) }
        }
        return found
    }

    /// What a Swift file of an outside package may not do.
    private func swiftRefusals(_ facts: SwiftSourceFacts, place: (Int) -> String) -> [String] {
        var refusals: [String] = []
        for attribute in facts.attributes {
            switch attribute.name {
            case "_dynamicReplacement":
                refusals.append(
                    "\(place(attribute.line)) uses @_dynamicReplacement, which replaces a function at run time")
            case "c", "_cdecl":
                refusals.append(
                    "\(place(attribute.line)) gives a function a C symbol's name (@\(attribute.name)), which replaces "
                        + "that symbol for the whole binary, libc's included")
            case "section" where !Self.isDebuggerSection(attribute),
                "_section" where !Self.isDebuggerSection(attribute):
                refusals.append(
                    "\(place(attribute.line)) places a value in a section of the binary other than a debugger's "
                        + "(@\(attribute.name)); the loader runs what .init_array holds before main")
            case "_silgen_name" where attribute.hasEscape, "_extern" where attribute.hasEscape:
                // The name is read for this package's symbols; an escape would spell one unread.
                refusals.append(
                    "\(place(attribute.line)) spells a symbol's name with escapes in @\(attribute.name), which this "
                        + "check cannot read")
            case "_silgen_name", "_extern":
                if let symbol = attribute.literal.flatMap(Self.runtimeSymbol) {
                    refusals.append(
                        "\(place(attribute.line)) declares \(symbol), a function of the Swift runtime or standard "
                            + "library, by name (@\(attribute.name)); its reflection reads what a value's mirror "
                            + "keeps hidden, and only \(Self.harmlessRuntimeSymbols.sorted().joined(separator: ", ")) "
                            + "is known to be used otherwise")
                }
            default: continue
            }
        }
        for line in facts.namedDefinitions {
            refusals.append(
                "\(place(line)) defines a function under a symbol's name of its own (@_silgen_name with a body), "
                    + "which replaces that symbol for the whole binary, libc's included")
        }
        for line in facts.macroLines {
            refusals.append(
                "\(place(line)) declares a macro; what a macro writes is not in the sources this check reads (and "
                    + "one may be defined as the toolchain's own)")
        }
        for use in facts.attributes + facts.expansions where Self.codeWritingMacros.contains(use.name) {
            refusals.append(
                "\(place(use.line)) uses \(use.name), a macro of the toolchain that writes code from its arguments "
                    + "(a string's text included), which this check cannot read")
        }
        for found in facts.imports {
            // A package's own SPI is its business; @testable and @_private open any module's internals (every module
            // of a debug build is compiled for testing: a thirty-third reviewer's reached swift-nio's channels, and
            // the gateway's requests to Apple on them).
            if let opener = found.attributes.first(where: { ["testable", "_private", "_spi"].contains($0) }),
                opener != "_spi" || opensInternals(found.module)
            {
                refusals.append(
                    "\(place(found.line)) imports \(found.module) with @\(opener), which opens what it keeps inside")
            }
            if found.module != api, packageModules.contains(found.module) {
                refusals.append(
                    "\(place(found.line)) imports \(found.module), a module of this package; a handler module reaches "
                        + "this package through \(api) alone")
            }
        }
        // `GatewayText::JSONWriter` reaches a module the API loads without importing it (a twenty-eighth reviewer's).
        for selector in facts.moduleSelectors where selector.module != api && packageModules.contains(selector.module) {
            refusals.append(
                "\(place(selector.line)) names \(selector.module)::, a module of this package, by a module selector; a "
                    + "handler module reaches this package through \(api) alone")
        }
        return refusals
    }

    /// Whether `attribute` (`@section`) places its value in a section only debuggers read (swift-collections
    /// gives LLDB its formatters so), named plainly.
    private static func isDebuggerSection(_ attribute: SwiftSourceFacts.Attribute) -> Bool {
        guard !attribute.hasEscape, let name = attribute.literal else { return false }
        return [".lldbformatters", ".lldbsummaries", "__DATA_CONST,__lldbformatters", "__DATA_CONST,__lldbsummaries"]
            .contains(name)
    }

    /// The compiler flags well-kept packages pass in `unsafeFlags`, which change diagnostics only.
    static let harmlessFlags: Set<String> = [
        "-Xfrontend", "-require-explicit-sendable", "-warnings-as-errors", "-require-explicit-availability",
        "-require-explicit-availability=error",
    ]

    /// Whether `file` is a package's manifest (`Package.swift`, `Package@swift-6.0.swift`).
    private static func isManifest(_ file: String) -> Bool {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift"))
    }

    /// The Swift runtime's entry points well-kept packages declare by name: swift-nio's executor runs jobs.
    static let harmlessRuntimeSymbols: Set = ["swift_job_run"]

    /// `name` when it is a function of the Swift runtime or a symbol of Swift's (`swift_…`, `_swift_…`, a mangled
    /// `$s…`) other than the ``harmlessRuntimeSymbols``: the runtime's reflection (`swift_reflectionMirror_…`)
    /// reads every stored field of a value, whatever its `customMirror` shows (a sixteenth reviewer read the whole
    /// config out of a capability's source that way).
    static func runtimeSymbol(_ name: String) -> String? {
        let bare = name.trimmingCharacters(in: .whitespaces)
        guard !harmlessRuntimeSymbols.contains(bare) else { return nil }
        let prefixes = ["swift_", "_swift_", "$s", "_$s", "$S", "_$S", "_T0"]
        return prefixes.contains { bare.hasPrefix($0) } ? bare : nil
    }

    /// The runtime's reflection entry points, by the start of their names.
    static let runtimeReflectionNames = [
        "swift_reflectionMirror_", "swift_getFieldAt", "swift_getTypeByMangledName",
        // The standard library's public wrapper of the last: any type of the binary by its name, the gateway's
        // own among them, by a name built at run time (a twenty-seventh reviewer's).
        "_typeByName",
    ]

    /// Where `text` names the runtime's reflection entry points (in C, assembly or a `dlsym` string), by line.
    static func runtimeReflection(in text: [UInt8]) -> [(symbol: String, line: Int)] {
        let words = runtimeReflectionNames
        var found: [(symbol: String, line: Int)] = []
        for (number, line) in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let lineText = String(decoding: line, as: UTF8.self)
            for word in words where lineText.contains(word) { found.append((word, number + 1)) }
        }
        return found
    }

    /// The C libraries the gateway links for its ledger and its web server's connections, by their API's names:
    /// one process holds them, so a module that names them reaches what the gateway does with them, through their
    /// process-wide hooks (a thirty-third reviewer's `sqlite3_auto_extension` ran inside every connection the
    /// ledger opened, and bound every purchase to an account of its own) or a definition of one of their
    /// functions in C, which the executable's copy wins over the shared library's. The library a `word` of the
    /// source names, if any.
    static func gatewayLibrary(named word: Substring) -> String? {
        if word.contains("sqlite3_") { return "SQLite's C API, the ledger's database library" }
        if word.contains("FCGX_") || word.contains("FCGI_") {
            return "libfcgi's C API, the library of the web server's connections"
        }
        if word.hasPrefix("PQ"), word.dropFirst(2).first?.isLowercase == true {
            return "libpq's C API, the shared ledger's database library"
        }
        return nil
    }

    /// The words of `text` (in C, Swift, or a `dlsym` string) that name a library of ``gatewayLibrary(named:)``,
    /// with their lines.
    static func gatewayLibraryNames(in text: [UInt8]) -> [(line: Int, word: String, library: String)] {
        var found: [(line: Int, word: String, library: String)] = []
        for (number, line) in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let words = String(decoding: line, as: UTF8.self).split { !($0.isLetter || $0.isNumber || $0 == "_") }
            for word in words {
                if let library = gatewayLibrary(named: word) { found.append((number + 1, String(word), library)) }
            }
        }
        return found
    }

    /// The toolchain's underscored macros (Swift 6.3: Swift, Testing): unsupported, and `_SwiftifyImport` writes
    /// its `spanAvailability:` string into the code it adds, escapes decoded, where no check reads it.
    static let codeWritingMacros: Set = [
        "_SwiftifyImport", "_SwiftifyImportProtocol", "_DebugDescriptionProperty", "__testing", "__capturedValue",
    ]

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
}
