import Foundation
import GatewayCore
import GatewayHandlerAPI
import GatewayServer

extension StoreGateCLI {
    /// `storegate version`: the version, then each handler module (its config name, its main type, where it
    /// came from: built in, or the place storegate-build recorded), then what is wrong with the modules
    /// themselves (a name two modules claim) on standard error, with status 1, as no config loads then.
    func printVersion() -> Int32 {
        var lines = ["storegate \(StoreGateVersion.current)", "handler modules:"]
        let modules = registry.all
        let nameWidth = modules.map(\.name.count).max() ?? 0
        let typeWidth = modules.map(\.typeName.count).max() ?? 0
        for module in modules {
            let name = module.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            let type = module.typeName.padding(toLength: typeWidth, withPad: " ", startingAt: 0)
            lines.append("  \(name)  \(type)  \(registry.origin(of: module.name))")
        }
        print(lines.joined(separator: "\n"))
        guard registry.problems.isEmpty else {
            let problems = registry.problems.map { "error: \($0.keyPath): \($0.message)\n" }.joined()
            FileHandle.standardError.write(Data(problems.utf8))
            return 1
        }
        return 0
    }
}
