import Foundation

/// Modules an earlier build left in the build's module folders under a toolchain module's name. A build the check
/// refused has already compiled the module packages it reached (SwiftPM compiles them beside the check), and
/// nothing removes them; every later compile of the same build folder searches that folder first, so a module
/// named like clang's `_Builtin_stddef` would be loaded as the overlay of the C module each `import Foundation`
/// loads, in the gateway's own code (a thirtieth reviewer's, through both doors, after their first build was
/// refused); so would one named like a module the gateway's sources test with `canImport` (GRDB's `string_h`). A
/// handler module cannot have such a name, and no package of the build defines it (swift-system's
/// `SystemPackage` is one the toolchain has too, and the gateway's), so one found here was left so.
enum StaleModules {
    /// A refusal for each module in `<scratch>/<triple>/<configuration>/Modules` named like one of the
    /// toolchain's, or like one the gateway's sources test with `canImport` (`importTested`), and not among
    /// `defined`, the modules of the build's packages.
    static func refusals(in scratch: String, defined: Set<String>, importTested: Set<String>) -> [String] {
        let reserved = ToolchainModules.names.union(importTested)
        let files = FileManager.default
        var found: Set<String> = []
        for triple in (try? files.contentsOfDirectory(atPath: scratch)) ?? [] {
            for configuration in (try? files.contentsOfDirectory(atPath: "\(scratch)/\(triple)")) ?? [] {
                let modules = "\(scratch)/\(triple)/\(configuration)/Modules"
                for entry in (try? files.contentsOfDirectory(atPath: modules)) ?? []
                where entry.hasSuffix(".swiftmodule") {
                    let name = String(entry.dropLast(".swiftmodule".count))
                    if reserved.contains(name), !defined.contains(name) {
                        found.insert("\(modules)/\(entry)")
                    }
                }
            }
        }
        return found.sorted().map { path in
            "error: the build folder holds \(path), a module named like one of the toolchain's (or one the gateway "
                + "tests for with canImport), left by an earlier "
                + "build the check refused: every compile of this build would load it in the toolchain's place; "
                + "remove it (swift package clean, or the work folder storegate-build was given) and build again"
        }
    }
}
