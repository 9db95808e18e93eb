import Foundation

/// Runs the registry's check of handler modules (HandlerRegistryGenerator, as the build plugin runs it) on a
/// plugin's source, declared with `dependencies` on the package's modules.
struct RegistryCheck {
    /// The package's modules, as the build plugin lists them (those an attack would reach for).
    static let packageModules = [
        "GatewayHandlerAPI", "GatewayCore", "GatewayText", "GatewayConcurrency", "GatewayServer", "ConfigYAML",
        "ProductCatalog", "PurchaseLedger", "PurchaseVerification", "AppStoreReceipts", "AppStoreServerAPI",
        "AppStoreSignedData", "ByteCoding", "FastCGIFront", "StoreGateApp", "CFastCGI", "CLibPQ", "AppStoreSim",
    ]

    func check(_ source: String, dependencies: [String] = [], macros: [String] = []) throws -> ToolRun {
        let binary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let generator = binary.deletingLastPathComponent().appendingPathComponent("HandlerRegistryGenerator")
        let arguments = [
            "--api", "GatewayHandlerAPI", "--package-modules", Self.packageModules.joined(separator: ","),
            "--handler", "BypassPlugin", "--depends", dependencies.joined(separator: ","), "--macros",
            macros.joined(separator: ","), "--sources",
        ]
        return try ToolRun(generator, arguments, on: source)
    }
}
