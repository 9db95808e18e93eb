import Foundation

/// Builds, with SwiftPM, a small package laid out as this one: the registry's build plugin and its generator (this
/// package's own, linked in), a handler API target, handler modules under `Plugins/` and an app that applies the
/// plugin. Each handler module depends on a local package of its own, so what the plugin hands the check (which
/// files, which package names) is what SwiftPM really resolved. The root's folder is `storegate-main` (as a
/// GitHub archive names it) unless a test names another.
struct PluginBuild {
    /// A package from outside: its folder name and its files (path and text), and links (path and target).
    struct Helper {
        let folder: String
        let files: [(path: String, text: String)]
        var links: [(path: String, target: String)] = []
        /// For a repository: files committed after the tag, on the branch `pr-head`.
        var later: [(path: String, text: String)] = []
    }

    /// The build's target triple, as SwiftPM names its folder of build products.
    static let triple: String = {
        var name = utsname()
        uname(&name)
        let machine = withUnsafeBytes(of: name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(machine)-unknown-linux-gnu"
    }()

    /// A helper's manifest unless it brings its own: one library of one target, `HELPER` standing for its name.
    static let manifest = """
        // swift-tools-version: 6.0
        import PackageDescription
        let package = Package(
            name: "HELPER", products: [.library(name: "HELPER", targets: ["HELPER"])], targets: [.target(name: "HELPER")])
        """

    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The build's output, with a handler module `Probe<n>Handler` depending on the `Helper<n>` product of each of
    /// `helpers` but those numbered in `unhandled`, in order, the root's folder named `root`; the handler API target
    /// (one of the gateway's own), whose source is `apiSource`, also depends on the helpers numbered in
    /// `gatewayUses`, and on the products `gatewayProducts` (product, package) of the git repositories
    /// `repositories` (each made in its folder, its files committed and tagged 1.0.0; the root names those it
    /// depends on by `file://` URL, from 1.0.0); the build folder holds the modules `staleModules` before it
    /// starts, as an earlier build would have left them; the root's manifest holds `rootComment`. `FOLDER` in a
    /// helper's or repository's file, or in the comment, stands for the folder that holds them all.
    static func build(
        _ helpers: [Helper], root rootFolder: String = "storegate-main", gatewayUses: [Int] = [],
        unhandled: Set<Int> = [], staleModules: [String] = [], apiSource: String = "public struct Marker {}\n",
        repositories: [Helper] = [], gatewayProducts: [(product: String, repository: Int)] = [],
        rootComment: String = ""
    ) async throws -> ToolRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-build-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let package = folder.appendingPathComponent(rootFolder)
        func write(_ text: String, to path: String, in base: URL) throws {
            let file = base.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        let handled = helpers.indices.filter { !unhandled.contains($0) }
        let handlers = handled.map { "Probe\($0)Handler" }
        let handlerTargets = zip(handled, handlers).map { index, handler in
            """
                    .target(
                        name: "\(handler)",
                        dependencies: ["GatewayHandlerAPI", .product(name: "Helper\(index)", package: "\(helpers[index].folder)")],
                        path: "Plugins/\(handler)", packageAccess: false),
            """
        }
        let dependencies =
            helpers.map { ".package(path: \"../\($0.folder)\")" }
            + Set(gatewayProducts.map(\.repository)).sorted().map {
                ".package(url: \"file://\(folder.path)/\(repositories[$0].folder)\", from: \"1.0.0\")"
            }
        let apiDependencies =
            gatewayUses.map { ".product(name: \"Helper\($0)\", package: \"\(helpers[$0].folder)\")" }
            + gatewayProducts.map {
                ".product(name: \"\($0.product)\", package: \"\(repositories[$0.repository].folder.split(separator: "/").last!)\")"
            }
        // The generator as the package defines it (its settings find the toolchain's parser).
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        guard let from = manifest.range(of: "let strict: [SwiftSetting]"),
            let to = manifest.range(of: "let package = Package(")
        else { throw PluginCompiler.Failure(description: "Package.swift defines no registryGenerator") }
        try write(
            """
            // swift-tools-version: 6.2
            import Foundation
            import PackageDescription
            \(manifest[from.lowerBound..<to.lowerBound])
            \(rootComment.replacingOccurrences(of: "FOLDER", with: folder.path))
            let package = Package(
                name: "StoreGate",
                dependencies: [\(dependencies.joined(separator: ", "))],
                targets: [
                    .target(
                        name: "GatewayHandlerAPI",
                        dependencies: [\(apiDependencies.joined(separator: ", "))]),
            \(handlerTargets.joined(separator: "\n"))
                    .executableTarget(
                        name: "app", dependencies: [\(handlers.map { "\"\($0)\"" }.joined(separator: ", "))],
                        plugins: ["HandlerRegistryPlugin"]),
                    registryGenerator,
                    .plugin(
                        name: "HandlerRegistryPlugin", capability: .buildTool(), dependencies: ["HandlerRegistryGenerator"]),
                ])
            """, to: "Package.swift", in: package)
        try write(apiSource, to: "Sources/GatewayHandlerAPI/API.swift", in: package)
        try write("print(\"app\")\n", to: "Sources/app/main.swift", in: package)
        for (index, handler) in zip(handled, handlers) {
            try write(
                "import GatewayHandlerAPI\nimport Helper\(index)\npublic enum \(handler) {}\n",
                to: "Plugins/\(handler)/\(handler).swift", in: package)
        }
        for (source, link) in [
            ("Sources/HandlerRegistryGenerator", "Sources/HandlerRegistryGenerator"),
            ("Plugins/HandlerRegistryPlugin", "Plugins/HandlerRegistryPlugin"),
        ] {
            try FileManager.default.createSymbolicLink(
                at: package.appendingPathComponent(link), withDestinationURL: root.appendingPathComponent(source))
        }
        for (index, helper) in helpers.enumerated() {
            let base = folder.appendingPathComponent(helper.folder)
            let named = { (text: String) in
                text.replacingOccurrences(of: "HELPER", with: "Helper\(index)")
                    .replacingOccurrences(of: "FOLDER", with: folder.path)
            }
            let manifest = helper.files.first { $0.path == "Package.swift" }?.text ?? Self.manifest
            try write(named(manifest), to: "Package.swift", in: base)
            for file in helper.files where file.path != "Package.swift" {
                try write(named(file.text), to: named(file.path), in: base)
            }
            for link in helper.links {
                let path = base.appendingPathComponent(named(link.path))
                try FileManager.default.createDirectory(
                    at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: link.target)
            }
        }
        for repository in repositories {
            let base = folder.appendingPathComponent(repository.folder)
            for file in repository.files {
                try write(file.text.replacingOccurrences(of: "FOLDER", with: folder.path), to: file.path, in: base)
            }
            let git = ["git", "-C", base.path, "-c", "user.name=t", "-c", "user.email=t@t"]
            for command in [["init", "-q"], ["add", "."], ["commit", "-qm", "1.0.0"], ["tag", "1.0.0"]] {
                try Self.run(git + command)
            }
            guard !repository.later.isEmpty else { continue }
            try Self.run(git + ["checkout", "-qb", "pr-head"])
            for file in repository.later { try write(file.text, to: file.path, in: base) }
            try Self.run(git + ["commit", "-qam", "later"])
            try Self.run(git + ["checkout", "-q", "-"])
        }
        // What an earlier build in the same build folder left among its modules: real ones (an empty file would
        // fail every compile that looks for it before the check could say why).
        let scratch = folder.appendingPathComponent("build")
        let modules = scratch.appendingPathComponent("\(Self.triple)/debug/Modules")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        for name in staleModules {
            try write("public let left = 0\n", to: "stale/\(name).swift", in: folder)
            try Self.run([
                "swiftc", "-emit-module", "-parse-as-library", "-module-name", name,
                folder.appendingPathComponent("stale/\(name).swift").path, "-o",
                modules.appendingPathComponent("\(name).swiftmodule").path,
            ])
        }
        let swift = URL(fileURLWithPath: "/usr/bin/env")
        return try await ToolRun(
            swift,
            [
                "swift", "build", "--package-path", package.path, "--scratch-path", scratch.path,
            ]
        )
    }

    /// Runs a command that makes the build's parts, or throws saying which failed.
    private static func run(_ command: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PluginCompiler.Failure(
                description: "cannot make the build's parts: \(command.joined(separator: " "))")
        }
    }
}
