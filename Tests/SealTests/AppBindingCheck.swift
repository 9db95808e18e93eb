import Foundation

/// Builds the app as the build does with one more handler module, `BypassPlugin`: the module, the registry the
/// generator writes for it and the real handlers, the app module (`StoreGateApp`) and the executable's
/// `main.swift`, the last two as SILGen; and lists every call in them that binds to a declaration of the
/// handler module. A handler module's extensions (a more specific overload of something the app calls) must
/// bind nowhere: its code runs only as the handler it registers.
struct AppBindingCheck {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The folder of the handler modules.
    static let plugins = root.appendingPathComponent("Plugins")
    private var root: URL { Self.root }
    private let handlerFlags: [String]
    private let appFlags: [String]
    private let mainFlags: [String]

    init() throws {
        handlerFlags = try PluginCompiler(like: "DownloadHandler").arguments
        appFlags = try PluginCompiler(like: "StoreGateApp").arguments
        mainFlags = try PluginCompiler(like: "storegate").arguments
    }

    /// What the app built with `BypassPlugin` turned out to be.
    struct Built {
        /// The calls in the app and in `main.swift` that bind to `BypassPlugin`.
        let bindings: [String]
        /// The types the generated registry lists, by their type names in SIL (`VerifyHandler.Type`).
        let registered: [String]
    }

    /// The app built with `source` as `BypassPlugin`, with the build's features or without `withoutFeature` (to
    /// show the check can see a binding); with `readable: false` the registry's check is given none of the
    /// module's sources, as it never sees what a macro writes.
    func build(_ source: String, withoutFeature feature: String? = nil, readable: Bool = true) async throws -> Built {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-binding-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plugin = folder.appendingPathComponent("BypassPlugin.swift")
        try source.write(to: plugin, atomically: true, encoding: .utf8)
        func without(_ flags: [String]) -> [String] {
            guard let feature, let at = flags.indices.first(where: { flags[$0] == feature && $0 > 0 }) else {
                return flags
            }
            return Array(flags[..<(at - 1)] + flags[(at + 1)...])
        }
        try await run(
            [
                "swiftc", "-emit-module", "-emit-module-path",
                folder.appendingPathComponent("BypassPlugin.swiftmodule").path,
                "-module-name", "BypassPlugin", "-parse-as-library",
            ] + handlerFlags + [plugin.path])
        let registry = folder.appendingPathComponent("registry")
        try FileManager.default.createDirectory(at: registry, withIntermediateDirectories: true)
        try await run(try generatorArguments(output: registry, plugin: readable ? plugin : nil), tool: generator())
        let registryFiles = try FileManager.default.contentsOfDirectory(atPath: registry.path)
            .map { registry.appendingPathComponent($0).path }
        let app = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("Sources/StoreGateApp").path
        )
        .filter { $0.hasSuffix(".swift") }.map { root.appendingPathComponent("Sources/StoreGateApp/\($0)").path }
        let appCommand =
            ["swiftc", "-module-name", "StoreGateApp", "-parse-as-library", "-I", folder.path]
            + without(appFlags) + app + registryFiles
        let modules = folder.appendingPathComponent("modules")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        try await run(appCommand + ["-wmo", "-emit-silgen", "-o", folder.appendingPathComponent("app.sil").path])
        try await run(
            appCommand + [
                "-emit-module", "-emit-module-path", modules.appendingPathComponent("StoreGateApp.swiftmodule").path,
            ])
        try await run(
            ["swiftc", "-module-name", "storegate", "-I", modules.path, "-I", folder.path] + without(mainFlags)
                + [
                    root.appendingPathComponent("Sources/storegate/main.swift").path, "-emit-silgen", "-o",
                    folder.appendingPathComponent("main.sil").path,
                ])
        let sil = try ["app.sil", "main.sil"].map {
            (
                file: $0,
                lines: try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8).split(separator: "\n")
            )
        }
        let bindings = sil.flatMap { file, lines in
            lines.filter { $0.contains("function_ref @") && $0.contains("12BypassPlugin") }
                .map { "\(file): \($0.trimmingCharacters(in: .whitespaces))" }
        }
        // The metatypes made in the registry's one-time initialisers (`CompiledInHandlers.<module>`).
        var registered: [String] = []
        var inRegistry = false
        for line in sil[0].lines {
            if line.hasPrefix("sil ") { inRegistry = line.contains("18CompiledInHandlersO") }
            if inRegistry, let range = line.range(of: "metatype $@thick ") {
                registered.append(String(line[range.upperBound...].prefix { $0 != " " }))
            }
        }
        return Built(bindings: bindings, registered: registered)
    }

    private func generator() throws -> URL {
        let binary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        return binary.deletingLastPathComponent().appendingPathComponent("HandlerRegistryGenerator")
    }

    /// The generator's command line for the real handler modules under Plugins/ and `plugin`.
    private func generatorArguments(output: URL, plugin: URL?) throws -> [String] {
        let plugins = Self.plugins
        var arguments =
            [
                "--output", output.path, "--api", "GatewayHandlerAPI", "--package-modules",
                RegistryCheck.packageModules.joined(separator: ","),
                "--handler", "BypassPlugin", "--depends", "GatewayHandlerAPI",
            ] + (plugin.map { ["--source", $0.path] } ?? [])
        for name in try FileManager.default.contentsOfDirectory(atPath: plugins.path).sorted()
        where name.hasSuffix("Handler") {
            let folder = plugins.appendingPathComponent(name)
            let sources = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".swift") }.map { folder.appendingPathComponent($0).path }
            arguments += ["--handler", name, "--depends", "GatewayHandlerAPI"] + sources.flatMap { ["--source", $0] }
        }
        return arguments
    }

    private func run(_ arguments: [String], tool: URL = URL(fileURLWithPath: "/usr/bin/env")) async throws {
        let result = try await ToolRun(tool, arguments)
        guard result.succeeded else {
            throw PluginCompiler.Failure(
                description: "\(arguments.prefix(8).joined(separator: " ")) …: \(result.output.prefix(3000))")
        }
    }
}
