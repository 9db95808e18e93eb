import Foundation
import PackagePlugin

/// Generates `HandlerRegistry.compiledIn` for the target it is applied to: every module under `Plugins/`
/// that the target depends on is a handler module whose main type carries the module's name.
/// Adding a handler is then a folder, its name in Package.swift, and a route in the config.
@main
struct HandlerRegistryPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let pluginsFolder = context.package.directoryURL.appending(path: "Plugins").standardizedFileURL.path + "/"
        let handlers = target.dependencies.compactMap { dependency -> String? in
            guard case .target(let dependencyTarget) = dependency,
                let module = dependencyTarget as? any SourceModuleTarget,
                module.directoryURL.standardizedFileURL.path.hasPrefix(pluginsFolder)
            else { return nil }
            return module.moduleName
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "CompiledInHandlers.swift")
        return [
            .buildCommand(
                displayName: "Generating the registry of compiled-in handlers",
                executable: try context.tool(named: "HandlerRegistryGenerator").url,
                arguments: [output.path] + handlers.sorted(),
                inputFiles: [],
                outputFiles: [output]
            )
        ]
    }
}
