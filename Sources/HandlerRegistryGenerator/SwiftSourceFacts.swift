import Foundation
@_spi(ExperimentalLanguageFeatures) import SwiftParser
import SwiftSyntax

/// What a Swift file does that the check of outside sources looks at, read by the Swift parser the toolchain
/// itself ships (swift-syntax in lib/swift/host, built with the compiler; the registry generator links it, so it
/// adds nothing to a build): every clause of every `#if`, comments, strings, interpolations and regex literals
/// as Swift reads them. A hand-written lexer read this before; five reviews in a row each found a literal it
/// read differently from Swift, behind which an import went unseen.
///
/// The file is parsed in the Swift 5 and the Swift 6 language mode (they differ on bare `/…/` regex literals),
/// each with and without the parser's experimental features (swift-collections uses `borrow` accessors), and
/// what each reading without errors finds counts; a file no reading takes without errors is unreadable. Where
/// this parser and the compiler read a file differently (the compiler lexes a bare regex after a form feed, this
/// parser does not), the file is unreadable here, so refused.
struct SwiftSourceFacts {
    struct Import: Equatable {
        let module: String
        /// The attributes written on the `import`, in every `#if` clause (`_spi`, `testable`).
        let attributes: [String]
        let line: Int
    }

    struct Attribute: Equatable {
        let name: String
        let line: Int
        /// Whether its arguments hold an escape (a name spelled with one cannot be read for symbols).
        let hasEscape: Bool
        /// The text of its first string literal argument (`@_silgen_name("swift_…")`), if it has one.
        var literal: String? = nil
    }

    /// An extension that adds conformances: `extension ConfigReader: @retroactive TextOutputStreamable`.
    struct Conformance: Equatable {
        /// The extended type as written, generic arguments dropped (`GatewayHandlerAPI.ConfigReader`, `Array`).
        let type: String
        /// The protocols as written, attributes dropped (`TextOutputStreamable`), a composition's each.
        let protocols: [String]
        let line: Int
    }

    /// An `unsafeFlags` in a manifest that passes more than the harmless flags, or what cannot be read.
    struct FlagProblem: Equatable {
        let line: Int
        let problem: String
    }

    private(set) var imports: [Import] = []
    private(set) var attributes: [Attribute] = []
    /// Lines that name `plugins` (a manifest applying build plugins: the `plugins:` argument, or `Target.plugins`
    /// set or changed).
    private(set) var pluginLines: [Int] = []
    /// Lines that name C settings (`cSettings`, `cxxSettings`, `headerSearchPath`): a manifest that gives a Swift
    /// target a header search path has it compile the headers of the module maps found there into its object.
    private(set) var cSettingLines: [Int] = []
    /// Lines of macro declarations (a macro may be defined as another, the toolchain's included).
    private(set) var macroLines: [Int] = []
    /// Freestanding macro expansions (`#name`), by name.
    private(set) var expansions: [Attribute] = []
    private(set) var flagProblems: [FlagProblem] = []
    /// A `linkedLibrary` or `linkedFramework` in a manifest that names more than a library (`":/tmp/blob.o"`
    /// links that file), or what cannot be read.
    private(set) var linkProblems: [FlagProblem] = []
    /// Lines of declarations that define a symbol under a name of their own choosing (`@_silgen_name` with a body).
    private(set) var namedDefinitions: [Int] = []
    /// The nominal types and protocols the file declares at its top level, by name (a `typealias` is not one: it
    /// may name another module's type). Only those: an extension, always at the top level, names a top-level type,
    /// and a nested type of the same name (`enum Labels { struct ConfigReader {} }`, a twenty-ninth reviewer's)
    /// is not the one it extends.
    private(set) var declaredTypes: [String] = []
    /// The extensions that add conformances.
    private(set) var conformances: [Conformance] = []
    /// Module selectors (`GatewayText::JSONWriter`), by module: a selector finds a declaration in any module that
    /// is loaded, imported by the file or not.
    private(set) var moduleSelectors: [Import] = []
    /// Whether some reading took the file without errors.
    let readable: Bool

    /// Whether `name` names a library for `-l` and nothing else: letters, digits, `_`, `+`, `.` and `-`, not
    /// starting with `-` (the linker takes `-l:/path/to/file.o` as that file).
    static func isLibraryName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != "-", first != "." else { return false }
        return name.unicodeScalars.allSatisfy {
            ("0"..."9").contains($0) || ("a"..."z").contains($0)
                || ("A"..."Z").contains($0) || "_+.-".unicodeScalars.contains($0)
        }
    }

    /// The facts of `text`, with `harmlessFlags` the compiler flags an `unsafeFlags` may pass.
    init(_ text: String, harmlessFlags: Set<String>) {
        var readable = false
        let readings: [(Parser.SwiftVersion, Parser.ExperimentalFeatures)] = [
            (.v5, []), (.v6, []), (.v5, .init(rawValue: .max)), (.v6, .init(rawValue: .max)),
        ]
        let bytes = Array(text.utf8)
        for (version, features) in readings {
            let tree = bytes.withUnsafeBufferPointer {
                Parser.parse(source: $0, swiftVersion: version, experimentalFeatures: features)
            }
            guard !tree.hasError else { continue }
            readable = true
            let visitor = FactsVisitor(tree: tree, harmlessFlags: harmlessFlags)
            visitor.walk(tree)
            Self.merge(visitor.imports, into: &imports)
            Self.merge(visitor.attributes, into: &attributes)
            Self.merge(visitor.pluginLines, into: &pluginLines)
            Self.merge(visitor.cSettingLines, into: &cSettingLines)
            Self.merge(visitor.macroLines, into: &macroLines)
            Self.merge(visitor.expansions, into: &expansions)
            Self.merge(visitor.flagProblems, into: &flagProblems)
            Self.merge(visitor.linkProblems, into: &linkProblems)
            Self.merge(visitor.namedDefinitions, into: &namedDefinitions)
            Self.merge(visitor.declaredTypes, into: &declaredTypes)
            Self.merge(visitor.conformances, into: &conformances)
            Self.merge(visitor.moduleSelectors, into: &moduleSelectors)
        }
        self.readable = readable
    }

    /// Adds to `list` what `found` holds that it does not, in order: what several readings see once.
    private static func merge<Fact: Equatable>(_ found: [Fact], into list: inout [Fact]) {
        for fact in found where !list.contains(fact) { list.append(fact) }
    }

    /// The manifest's names for C settings.
    static let cSettingNames: Set = ["cSettings", "cxxSettings", "headerSearchPath"]

    /// A name as Swift means it: backticks (`` `Swift` ``), surrounding space and a module's qualification
    /// (`Swift._SwiftifyImport`) dropped.
    static func plain(_ name: String) -> String {
        let bare = name.filter { $0 != "`" }.trimmingCharacters(in: .whitespacesAndNewlines)
        return bare.split(separator: ".").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? bare
    }
}

/// Walks one parse, collecting ``SwiftSourceFacts``.
private final class FactsVisitor: SyntaxVisitor {
    let converter: SourceLocationConverter
    let harmlessFlags: Set<String>
    var imports: [SwiftSourceFacts.Import] = []
    var attributes: [SwiftSourceFacts.Attribute] = []
    var pluginLines: [Int] = []
    var cSettingLines: [Int] = []
    var macroLines: [Int] = []
    var expansions: [SwiftSourceFacts.Attribute] = []
    var flagProblems: [SwiftSourceFacts.FlagProblem] = []
    var linkProblems: [SwiftSourceFacts.FlagProblem] = []
    var namedDefinitions: [Int] = []
    var declaredTypes: [String] = []
    var conformances: [SwiftSourceFacts.Conformance] = []
    var moduleSelectors: [SwiftSourceFacts.Import] = []

    init(tree: SourceFileSyntax, harmlessFlags: Set<String>) {
        converter = SourceLocationConverter(fileName: "", tree: tree)
        self.harmlessFlags = harmlessFlags
        super.init(viewMode: .sourceAccurate)
    }

    private func line(of node: some SyntaxProtocol) -> Int {
        converter.location(for: node.positionAfterSkippingLeadingTrivia).line
    }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        // Attributes may stand in `#if` clauses of their own (`#if X @_spi(A) #endif import M`): all of them count.
        let written = AttributeNames(viewMode: .sourceAccurate)
        written.walk(node.attributes)
        imports.append(
            .init(
                module: SwiftSourceFacts.plain(node.path.first?.name.text ?? ""), attributes: written.names,
                line: line(of: node.importKeyword)))
        return .visitChildren
    }

    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
        let literal = node.arguments.flatMap { FirstStringLiteral.in($0) }
        attributes.append(
            .init(
                name: SwiftSourceFacts.plain(node.attributeName.trimmedDescription), line: line(of: node),
                hasEscape: node.arguments?.description.contains("\\") ?? false, literal: literal))
        return .visitChildren
    }

    override func visit(_ node: ModuleSelectorSyntax) -> SyntaxVisitorContinueKind {
        moduleSelectors.append(
            .init(module: SwiftSourceFacts.plain(node.moduleName.text), attributes: [], line: line(of: node)))
        return .visitChildren
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { declare(node.name) }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { declare(node.name) }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { declare(node.name) }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { declare(node.name) }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { declare(node.name) }

    private func declare(_ name: TokenSyntax) -> SyntaxVisitorContinueKind {
        if Self.isTopLevel(name) { declaredTypes.append(SwiftSourceFacts.plain(name.text)) }
        return .visitChildren
    }

    /// Whether the declaration `name` belongs to stands at the file's top level: only statements and `#if`
    /// clauses between it and the file.
    private static func isTopLevel(_ name: TokenSyntax) -> Bool {
        var node = name.parent?.parent
        while let current = node {
            if current.kind == .sourceFile { return true }
            let between: [SyntaxKind] = [
                .codeBlockItem, .codeBlockItemList, .ifConfigClause, .ifConfigClauseList, .ifConfigDecl,
            ]
            guard between.contains(current.kind) else { return false }
            node = current.parent
        }
        return false
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let clause = node.inheritanceClause else { return .visitChildren }
        let protocols = clause.inheritedTypes.flatMap { Self.names(in: $0.type) }
        conformances.append(
            .init(type: Self.written(node.extendedType), protocols: protocols, line: line(of: node.extensionKeyword)))
        return .visitChildren
    }

    /// A type as written, without its generic arguments, attributes or sugar's brackets (`[Int]` is `Array`).
    private static func written(_ type: TypeSyntax) -> String {
        if let attributed = type.as(AttributedTypeSyntax.self) { return written(attributed.baseType) }
        if type.is(ArrayTypeSyntax.self) { return "Array" }
        if type.is(DictionaryTypeSyntax.self) { return "Dictionary" }
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return "Optional" }
        if let member = type.as(MemberTypeSyntax.self) { return written(member.baseType) + "." + member.name.text }
        if let plain = type.as(IdentifierTypeSyntax.self) { return plain.name.text.filter { $0 != "`" } }
        return type.trimmedDescription
    }

    /// The protocols an inherited type names: a composition's each.
    private static func names(in type: TypeSyntax) -> [String] {
        if let composition = type.as(CompositionTypeSyntax.self) {
            return composition.elements.flatMap { names(in: $0.type) }
        }
        return [written(type)]
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        noteDefinition(node, attributes: node.attributes, hasBody: node.body != nil)
    }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        noteDefinition(node, attributes: node.attributes, hasBody: node.body != nil)
    }

    override func visit(_ node: AccessorDeclSyntax) -> SyntaxVisitorContinueKind {
        noteDefinition(node, attributes: node.attributes, hasBody: node.body != nil)
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        noteDefinition(node, attributes: node.attributes, hasBody: node.bindings.contains { $0.accessorBlock != nil })
    }

    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind {
        noteDefinition(node, attributes: node.attributes, hasBody: node.accessorBlock != nil)
    }

    /// Notes `node` when it defines a body under a symbol name of its own (`@_silgen_name`, in any `#if` clause):
    /// swift-atomics and swift-nio only declare the runtime's functions so; a definition takes the name for the
    /// whole binary (a nineteenth reviewer's `memchr` and `unsetenv`).
    private func noteDefinition(_ node: some SyntaxProtocol, attributes: AttributeListSyntax, hasBody: Bool)
        -> SyntaxVisitorContinueKind
    {
        guard hasBody else { return .visitChildren }
        let written = AttributeNames(viewMode: .sourceAccurate)
        written.walk(attributes)
        if written.names.contains("_silgen_name") { namedDefinitions.append(line(of: node)) }
        return .visitChildren
    }

    override func visit(_ node: LabeledExprSyntax) -> SyntaxVisitorContinueKind {
        if node.label?.text == "plugins" { pluginLines.append(line(of: node)) }
        if let label = node.label?.text, SwiftSourceFacts.cSettingNames.contains(label) {
            cSettingLines.append(line(of: node))
        }
        return .visitChildren
    }

    override func visit(_ node: MacroDeclSyntax) -> SyntaxVisitorContinueKind {
        macroLines.append(line(of: node))
        return .visitChildren
    }

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        expansions.append(
            .init(name: SwiftSourceFacts.plain(node.macroName.text), line: line(of: node), hasEscape: false))
        return .visitChildren
    }

    override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind {
        expansions.append(
            .init(name: SwiftSourceFacts.plain(node.macroName.text), line: line(of: node), hasEscape: false))
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let name = SwiftSourceFacts.plain(node.baseName.text)
        if name == "plugins" { pluginLines.append(line(of: node)) }
        if SwiftSourceFacts.cSettingNames.contains(name) { cSettingLines.append(line(of: node)) }
        if name == "linkedLibrary" || name == "linkedFramework", let problem = problem(withLibraryAt: node) {
            linkProblems.append(.init(line: line(of: node), problem: problem))
        }
        guard name == "unsafeFlags" else { return .visitChildren }
        if let problem = problem(withFlagsAt: node) {
            flagProblems.append(.init(line: line(of: node), problem: problem))
        }
        return .visitChildren
    }

    /// The call of the function named at `reference` (`unsafeFlags(…)`, `.linkedLibrary(…)`) when it is a plain
    /// one: no trailing closure, and a first argument without a label.
    private static func plainCall(of reference: DeclReferenceExprSyntax) -> FunctionCallExprSyntax? {
        var callee = Syntax(reference)
        if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
            callee = Syntax(member)
        }
        guard let call = callee.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == callee.id,
            call.trailingClosure == nil, call.additionalTrailingClosures.isEmpty,
            let first = call.arguments.first, first.label == nil
        else { return nil }
        return call
    }

    /// What is wrong with the `linkedLibrary` named at `reference`: nothing when it is called with one plain
    /// string literal that is a library's name (`-l` then finds a library by it), and at most a `.when(…)`.
    private func problem(withLibraryAt reference: DeclReferenceExprSyntax) -> String? {
        guard let call = Self.plainCall(of: reference), let first = call.arguments.first,
            call.arguments.dropFirst().allSatisfy({ $0.label?.text == "when" || Self.isCondition($0.expression) })
        else { return "a library this check cannot read" }
        guard let literal = first.expression.as(StringLiteralExprSyntax.self), literal.segments.count == 1,
            let segment = literal.segments.first?.as(StringSegmentSyntax.self),
            SwiftSourceFacts.isLibraryName(segment.content.text)
        else { return "\(first.expression.trimmedDescription), which is not a library's name" }
        return nil
    }

    /// What is wrong with the `unsafeFlags` named at `reference`: nothing when it is called with an array of plain
    /// string literals, each a harmless flag, and at most a `.when(…)` condition after it.
    private func problem(withFlagsAt reference: DeclReferenceExprSyntax) -> String? {
        guard let call = Self.plainCall(of: reference),
            let flags = call.arguments.first?.expression.as(ArrayExprSyntax.self)
        else { return "flags this check cannot read" }
        for extra in call.arguments.dropFirst() {
            guard extra.label?.text == "when" || Self.isCondition(extra.expression) else {
                return "flags this check cannot read"
            }
        }
        for element in flags.elements {
            guard let literal = element.expression.as(StringLiteralExprSyntax.self), literal.segments.count == 1,
                let segment = literal.segments.first?.as(StringSegmentSyntax.self),
                !segment.content.text.contains("\\"), harmlessFlags.contains(segment.content.text)
            else {
                let written = element.expression.trimmedDescription
                return element.expression.is(StringLiteralExprSyntax.self)
                    ? "the flag \(written)" : "flags this check cannot read"
            }
        }
        return nil
    }

    /// Whether `expression` is a condition, `.when(…)`.
    private static func isCondition(_ expression: ExprSyntax) -> Bool {
        guard let call = expression.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self)
        else { return false }
        return member.base == nil && SwiftSourceFacts.plain(member.declName.baseName.text) == "when"
    }
}

/// The names of the attributes under a node, `#if` clauses included.
private final class AttributeNames: SyntaxVisitor {
    var names: [String] = []

    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
        names.append(SwiftSourceFacts.plain(node.attributeName.trimmedDescription))
        return .visitChildren
    }
}

/// The text of the first string literal under a node (its segments as written).
private final class FirstStringLiteral: SyntaxVisitor {
    var text: String?

    static func `in`(_ node: some SyntaxProtocol) -> String? {
        let finder = FirstStringLiteral(viewMode: .sourceAccurate)
        finder.walk(node)
        return finder.text
    }

    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        if text == nil { text = node.segments.description }
        return .skipChildren
    }
}
