import Foundation

/// The storegate checkout a gateway is built from: the folder of this repository's Package.swift.
struct Checkout {
    /// The checkout this tool was compiled from (its sources are in `Sources/storegate-build/`).
    static let own = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    let folder: URL

    init(_ path: String) throws {
        folder = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        guard FileManager.default.fileExists(atPath: folder.appending(path: "Sources/GatewayHandlerAPI").path),
            FileManager.default.fileExists(atPath: folder.appending(path: "Package.swift").path)
        else {
            throw BuildProblem("\(path) is not a storegate checkout (no Package.swift with Sources/GatewayHandlerAPI)")
        }
    }

    /// The handler modules compiled into every storegate: the folders under `Plugins/` that hold Swift sources.
    func builtInModules() -> [String] {
        let plugins = folder.appending(path: "Plugins")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: plugins.path)) ?? []
        // HandlerRegistryPlugin is the registry's build plugin, not a handler module.
        return names.filter { $0 != "HandlerRegistryPlugin" && !$0.hasPrefix(".") }.sorted()
    }
}

/// Why a build cannot go on, in words for the person running it.
struct BuildProblem: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
