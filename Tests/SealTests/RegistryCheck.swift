import Foundation

/// Runs the registry's check of handler modules (HandlerRegistryGenerator, as the build plugin runs it) on a
/// plugin's source, declared with `dependencies` on the package's modules.
struct RegistryCheck {
    /// The package's modules, as the build plugin lists them (every target of the package; those an attack would
    /// reach for). ContentStorage (the storage's keys and signers) and the store clients were missing, so an
    /// attack that imports them was checked against a list the real build does not use.
    static let packageModules = [
        "GatewayHandlerAPI", "GatewayCore", "GatewayText", "GatewayConcurrency", "GatewayServer", "ConfigYAML",
        "ProductCatalog", "PurchaseLedger", "PurchaseVerification", "AppStoreReceipts", "AppStoreServerAPI",
        "AppStoreSignedData", "ByteCoding", "FastCGIFront", "StoreGateApp", "CFastCGI", "CLibPQ", "AppStoreSim",
        "ContentStorage", "StoreHTTP", "GooglePlay", "GooglePlayAPI", "PurchaseEvents",
    ]

    /// Runs the check with `source` as the handler module, declared with `dependencies` on the package's modules,
    /// reaching the macro modules `macros`, the binary targets `binaries` and, from packages outside this one, the
    /// files `outside` (name and text) and `outsideFiles` (paths) of the modules `outsideModules`; the module's
    /// file is named `fileName` if given.
    func check(
        _ source: String, dependencies: [String] = [], macros: [String] = [], binaries: [String] = [],
        outside: [(name: String, text: String)] = [], outsideFiles: [String] = [], outsideModules: [String] = [],
        fileName: String? = nil
    ) async throws -> ToolRun {
        let generator = try Self.generator()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var listed = outsideFiles
        for file in outside {
            let path = folder.appendingPathComponent(file.name)
            try file.text.write(to: path, atomically: true, encoding: .utf8)
            listed.append(path.path)
        }
        let list = folder.appendingPathComponent("outside-sources")
        try listed.map { $0 + "\0" }.joined().write(to: list, atomically: true, encoding: .utf8)
        let arguments = [
            "--api", "GatewayHandlerAPI", "--package-modules", Self.packageModules.joined(separator: ","),
            "--handler", "BypassPlugin", "--depends", dependencies.joined(separator: ","), "--macros",
            macros.joined(separator: ","), "--binaries", binaries.joined(separator: ","), "--outside-sources",
            list.path, "--outside-modules", outsideModules.joined(separator: ","), "--source",
        ]
        return try await ToolRun(generator, arguments, on: source, named: fileName)
    }

    /// Runs the check of where a package the gateway builds with comes from: `origin` (identity, location, version
    /// as SwiftPM reports them), a dependency of a package of the gateway's (`async-http-client`, itself a
    /// dependency of the root, from its own location at 1.37.0) whose manifest's text is `manifest`, with no
    /// handler module.
    /// With `registry`, the package comes from a package registry as that identity, not from `location`.
    func checkOrigin(
        _ origin: (identity: String, location: String, version: String), manifest: String, registry: String? = nil
    ) async throws -> ToolRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("origin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = "https://github.com/swift-server/async-http-client"
        let manifests = [
            ("storegate", "let package = Package(dependencies: [.package(url: \"\(client)\", from: \"1.37.0\")])"),
            ("async-http-client", manifest),
        ]
        var arguments = [
            "--api", "GatewayHandlerAPI", "--package-modules", Self.packageModules.joined(separator: ","),
            "--gateway-root", "storegate", "--gateway-repository", "async-http-client", client, "1.37.0", "c0ffee",
            "--gateway-dependency", "storegate", "async-http-client", "--gateway-dependency", "async-http-client",
            origin.identity,
        ]
        arguments +=
            registry.map { ["--gateway-registry", origin.identity, $0, origin.version] }
            ?? ["--gateway-repository", origin.identity, origin.location, origin.version, "c0ffee"]
        for (identity, text) in manifests {
            let file = folder.appendingPathComponent("\(identity).swift")
            try text.write(to: file, atomically: true, encoding: .utf8)
            arguments += ["--gateway-manifest", identity, file.path]
        }
        return try await ToolRun(try Self.generator(), arguments)
    }

    /// The generator this test run was built with.
    private static func generator() throws -> URL {
        let binary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        return binary.deletingLastPathComponent().appendingPathComponent("HandlerRegistryGenerator")
    }
}
