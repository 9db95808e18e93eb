import Foundation
import PackagePlugin

/// Generates `HandlerRegistry.compiledIn` for the target it is applied to: every module under `Plugins/`
/// that the target depends on is a handler module whose main type carries the module's name. Before that,
/// the generator refuses a handler module that depends on, or imports, a module of this package other than
/// the handler API, or that can use macros (a build error naming both). Adding a handler is a folder, its name in Package.swift, and a
/// route in the config.
@main
struct HandlerRegistryPlugin: BuildToolPlugin {
    /// The one module of this package a handler module may build against.
    static let api = "GatewayHandlerAPI"

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let pluginsFolder = context.package.directoryURL.appending(path: "Plugins").standardizedFileURL.path + "/"
        let handlers = target.dependencies.compactMap { dependency -> (any SourceModuleTarget)? in
            guard case .target(let dependencyTarget) = dependency,
                let module = dependencyTarget as? any SourceModuleTarget,
                module.directoryURL.standardizedFileURL.path.hasPrefix(pluginsFolder)
            else { return nil }
            return module
        }
        let packageModules = context.package.targets.map(\.name)
        var arguments = ["--api", Self.api, "--package-modules", packageModules.joined(separator: ",")]
        var inputs: [URL] = []
        for handler in handlers.sorted(by: { $0.moduleName < $1.moduleName }) {
            let dependencies = handler.dependencies.compactMap { dependency -> String? in
                if case .target(let target) = dependency { target.name } else { nil }
            }
            let sources = handler.sourceFiles(withSuffix: "swift").map(\.url)
            inputs += sources
            arguments += [
                "--handler", handler.moduleName, "--depends", dependencies.joined(separator: ","),
                "--sources", sources.map(\.path).joined(separator: ","),
                "--macros", Self.macros(reachedBy: handler.dependencies).sorted().joined(separator: ","),
            ]
        }
        let output = context.pluginWorkDirectoryURL
        let files = ["CompiledInHandlers.swift"] + handlers.map { "CompiledIn+\($0.moduleName).swift" }
        return [
            .buildCommand(
                displayName: "Checking handler modules and generating the registry of compiled-in handlers",
                executable: try context.tool(named: "HandlerRegistryGenerator").url,
                arguments: ["--output", output.path] + arguments,
                inputFiles: inputs,
                outputFiles: files.map { output.appending(path: $0) }
            )
        ]
    }

    /// The macro modules among `dependencies` and theirs, all the way down.
    static func macros(reachedBy dependencies: [TargetDependency]) -> Set<String> {
        var macros: Set<String> = []
        var seen: Set<String> = []
        var pending = dependencies
        while let dependency = pending.popLast() {
            let targets: [any Target] =
                switch dependency {
                case .target(let target): [target]
                case .product(let product): product.targets
                @unknown default: []
                }
            for target in targets where seen.insert(target.id).inserted {
                if let module = target as? any SourceModuleTarget, module.kind == .macro { macros.insert(target.name) }
                pending += target.dependencies
            }
        }
        return macros
    }
}
