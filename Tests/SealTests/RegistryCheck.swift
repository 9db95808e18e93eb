import Foundation

/// Runs the registry's check of handler modules (HandlerRegistryGenerator, as the build plugin runs it) on a
/// plugin's source, declared with `dependencies` on the package's modules.
struct RegistryCheck {
    struct Result {
        let succeeded: Bool
        let output: String
    }

    /// The package's modules, as the build plugin lists them (those an attack would reach for).
    static let packageModules = [
        "GatewayHandlerAPI", "GatewayCore", "GatewayText", "GatewayConcurrency", "GatewayServer", "ConfigYAML",
        "ProductCatalog", "PurchaseLedger", "PurchaseVerification", "AppStoreReceipts", "AppStoreServerAPI",
        "AppStoreSignedData", "ByteCoding", "FastCGIFront", "StoreGateApp", "CFastCGI", "CLibPQ", "AppStoreSim",
    ]

    func check(_ source: String, dependencies: [String] = []) throws -> Result {
        let binary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let generator = binary.deletingLastPathComponent().appendingPathComponent("HandlerRegistryGenerator")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = generator
        process.arguments = [
            "--api", "GatewayHandlerAPI", "--package-modules", Self.packageModules.joined(separator: ","),
            "--handler", "BypassPlugin", "--depends", dependencies.joined(separator: ","), "--sources", file.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(succeeded: process.terminationStatus == 0, output: String(decoding: output, as: UTF8.self))
    }
}
