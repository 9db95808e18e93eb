import Foundation

/// A module package as its manifest describes it (`swift package dump-package`): its handler modules (its
/// library products) and how it names storegate, whose GatewayHandlerAPI product it depends on.
struct ModulePackage {
    let folder: URL
    /// The package's identity as a dependency by path: its folder's name, lowercased (SwiftPM's rule).
    let identity: String
    /// Its library products, each a handler module named like the product.
    let handlerModules: [String]
    /// Where it came from, as `storegate version` shows it.
    let origin: String
    /// The identity of the package it takes GatewayHandlerAPI from (SwiftPM's name for it: a URL's or folder's
    /// last part, lowercased).
    let apiPackage: String

    init(_ folder: URL, spec: ModuleSpec) throws {
        self.folder = folder
        identity = folder.lastPathComponent.lowercased()
        let dump = try Subprocess.run("swift", ["package", "dump-package", "--package-path", folder.path])
        guard dump.status == 0,
            let manifest = try? JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any]
        else { throw BuildProblem("cannot read the package at \(folder.path):\n\(dump.errors)") }
        let products = manifest["products"] as? [[String: Any]] ?? []
        handlerModules = products.filter { ($0["type"] as? [String: Any])?["library"] != nil }
            .compactMap { $0["name"] as? String }.sorted()
        guard !handlerModules.isEmpty else {
            throw BuildProblem(
                "the package at \(folder.path) has no library product; each handler module is one, named like it")
        }
        origin = spec.origin(of: folder)
        apiPackage = try Self.apiPackage(in: manifest, at: folder)
    }

    /// The dependency its modules take `GatewayHandlerAPI` from.
    private static func apiPackage(in manifest: [String: Any], at folder: URL) throws -> String {
        let targets = manifest["targets"] as? [[String: Any]] ?? []
        let named = targets.flatMap { $0["dependencies"] as? [[String: Any]] ?? [] }.compactMap { dependency in
            (dependency["product"] as? [Any]).flatMap {
                $0.count > 1 && $0[0] as? String == "GatewayHandlerAPI" ? $0[1] as? String : nil
            }
        }
        guard let name = named.first else {
            throw BuildProblem(
                "the package at \(folder.path) does not depend on storegate's GatewayHandlerAPI product, the one "
                    + "library a handler module builds against")
        }
        for dependency in manifest["dependencies"] as? [[String: Any]] ?? [] {
            // {"fileSystem": [{...}]}, {"sourceControl": [{...}]} or {"registry": [{...}]}
            for value in dependency.values {
                guard let details = (value as? [[String: Any]])?.first,
                    let identity = details["identity"] as? String,
                    identity == name.lowercased() || details["nameForTargetDependencyResolutionOnly"] as? String == name
                else { continue }
                return identity
            }
        }
        throw BuildProblem(
            "the package at \(folder.path) names no dependency \(name), which it takes GatewayHandlerAPI from")
    }
}
