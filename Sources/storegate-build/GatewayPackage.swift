import Foundation

/// The package storegate-build writes and builds: an executable that depends on the storegate checkout (its
/// `StoreGateApp` product and its registry plugin) and on each module package's handler modules.
struct GatewayPackage {
    /// The executable's module; its binary is installed as `storegate`.
    static let executable = "StoreGateWithModules"

    let checkout: Checkout
    let modules: [ModulePackage]
    let folder: URL
    /// The folder the package depends on storegate by, whose name is the identity the modules use for it.
    private let storegateFolder: URL
    /// Where the checkout's own packages are resolved, apart from its build folder.
    private let pins: URL

    init(checkout: Checkout, modules: [ModulePackage], folder work: URL) throws {
        self.checkout = checkout
        self.modules = modules
        folder = work.appending(path: "gateway")
        pins = work.appending(path: "storegate-pins")
        try Self.checkNames(modules, builtIn: checkout.builtInModules())
        // SwiftPM names a package by its folder: two module packages in folders of one name are one to it.
        for (identity, packages) in Dictionary(grouping: modules, by: \.identity) where packages.count > 1 {
            throw BuildProblem(
                "\(packages.map(\.origin).joined(separator: " and ")) are in folders of one name (\(identity)), "
                    + "which SwiftPM takes for one package; rename a folder")
        }
        // Every module must take the handler API from one package, which is this checkout: the package here
        // depends on the checkout under the identity they use (its own folder when named so, else a folder so
        // named, linked to it), and SwiftPM takes the root package's dependency for theirs (a URL, another folder).
        let identities = Dictionary(grouping: modules, by: \.apiPackage)
        guard identities.count <= 1 else {
            let named = identities.map { "\($0.value.map(\.origin).joined(separator: ", ")) name it \($0.key)" }
            throw BuildProblem(
                "the module packages name storegate differently (\(named.joined(separator: "; "))); "
                    + "each must depend on it under one name")
        }
        if let identity = modules.first?.apiPackage, identity != checkout.folder.lastPathComponent.lowercased() {
            let link = work.appending(path: "storegate-as/\(identity)")
            try FileManager.default.createDirectory(
                at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: link)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: checkout.folder)
            storegateFolder = link
        } else {
            storegateFolder = checkout.folder
        }
    }

    /// A module's name is its module's and its main type's: one another module has (built in, or from another
    /// package) is refused before anything is built, naming both.
    private static func checkNames(_ modules: [ModulePackage], builtIn: [String]) throws {
        var seen: [String: String] = Dictionary(uniqueKeysWithValues: builtIn.map { ($0, "storegate (built in)") })
        for package in modules {
            for module in package.handlerModules {
                if let first = seen[module] {
                    throw BuildProblem(
                        "two handler modules are named \(module): one from \(first), one from \(package.origin); "
                            + "rename one (its product, module and main type)")
                }
                seen[module] = package.origin
            }
        }
    }

    /// Writes the manifest and the executable's two sources (only when changed, so a build again is quick).
    func write() throws {
        let sources = folder.appending(path: "Sources/\(Self.executable)")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try Self.update(folder.appending(path: "Package.swift"), with: manifest())
        try Self.update(sources.appending(path: "main.swift"), with: Self.main)
        try Self.update(sources.appending(path: "ModuleOrigins.swift"), with: origins())
    }

    /// Builds the executable, once every package storegate builds with comes from where storegate says; its binary.
    func build(configuration: String) throws -> URL {
        let storegateGraph = try DependencyGraph(resolvedTreeOf: checkout.folder, scratch: pins)
        try storegateGraph.refuseStandIns(among: modules)
        try DependencyGraph(resolvedTreeOf: folder).check(against: storegateGraph)
        let arguments = ["build", "--package-path", folder.path, "-c", configuration, "--product", Self.executable]
        guard try Subprocess.stream("swift", arguments) == 0 else {
            throw BuildProblem(
                "the build failed; the errors above say why (a handler module the registry's check refuses is "
                    + "named there, with what it must not reach)")
        }
        let binPath = try Subprocess.run("swift", arguments.dropLast(2) + ["--show-bin-path"])
        return URL(fileURLWithPath: binPath.output.trimmingCharacters(in: .whitespacesAndNewlines))
            .appending(path: Self.executable)
    }

    private var storegateIdentity: String { storegateFolder.lastPathComponent.lowercased() }

    func manifest() -> String {
        let packages = ([storegateFolder] + modules.map(\.folder)).map { ".package(path: \(literal($0.path)))" }
        let products =
            [".product(name: \"StoreGateApp\", package: \(literal(storegateIdentity)))"]
            + modules.flatMap { package in
                package.handlerModules.map { ".product(name: \(literal($0)), package: \(literal(package.identity)))" }
            }
        return """
            // swift-tools-version: 6.2
            // Written by storegate-build: storegate with handler modules from outside. Do not edit; run it again.
            import PackageDescription

            let package = Package(
                name: "storegate-with-modules",
                platforms: [.macOS(.v15)],
                dependencies: [
                    \(packages.joined(separator: ",\n        "))
                ],
                targets: [
                    .executableTarget(
                        name: \(literal(Self.executable)),
                        dependencies: [
                            \(products.joined(separator: ",\n                "))
                        ],
                        swiftSettings: [
                            .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility"),
                            .treatAllWarnings(as: .error),
                        ],
                        linkerSettings: [.linkedLibrary("mimalloc")],
                        plugins: [.plugin(name: "HandlerRegistryPlugin", package: \(literal(storegateIdentity)))]
                    )
                ]
            )

            """
    }

    /// The executable's entry. AddedHandlers is what the registry plugin generates from the modules it checked.
    static let main = """
        // Written by storegate-build. Do not edit.
        import Foundation
        import StoreGateApp

        exit(StoreGateEntry.main(Array(CommandLine.arguments.dropFirst()), adding: AddedHandlers.types, origins: moduleOrigins))

        """

    func origins() -> String {
        let entries = modules.flatMap { package in
            package.handlerModules.map { "\(literal($0)): \(literal(package.origin))" }
        }
        return """
            // Written by storegate-build. Do not edit.

            /// Where each handler module from outside came from, by its Swift module, for `storegate version`.
            let moduleOrigins: [String: String] = [\(entries.isEmpty ? ":" : entries.joined(separator: ", "))]

            """
    }

    private static func update(_ file: URL, with text: String) throws {
        guard (try? String(contentsOf: file, encoding: .utf8)) != text else { return }
        try text.write(to: file, atomically: true, encoding: .utf8)
    }
}

/// `text` as a Swift string literal, every character escaped as Swift reads it.
private func literal(_ text: String) -> String { String(reflecting: text) }
