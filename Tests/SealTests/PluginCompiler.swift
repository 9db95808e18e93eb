import Foundation

/// Type-checks a handler plugin's source against the modules this build made, with the same search paths
/// and C module maps SwiftPM gave a real handler module (read from the build's llbuild manifest).
struct PluginCompiler {
    /// The flags the module was compiled with that decide how its source is read.
    let arguments: [String]

    /// The flags SwiftPM compiled `module` (a handler under Plugins/, or another target) with: module search
    /// paths, C module maps, target, language mode and features, and its package name when it has one (a
    /// handler module has none); nothing that writes output.
    init(like module: String) throws {
        let binary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let configuration = binary.deletingLastPathComponent()  // .build/<triple>/debug
        let scratch = configuration.deletingLastPathComponent().deletingLastPathComponent()
        let manifest = try String(
            contentsOf: scratch.appendingPathComponent("\(configuration.lastPathComponent).yaml"), encoding: .utf8)
        let triple = configuration.deletingLastPathComponent().lastPathComponent
        let key = "\"C.\(module)-\(triple)-\(configuration.lastPathComponent).module\""
        guard let command = manifest.range(of: key),
            let argsLine = manifest[command.upperBound...].split(separator: "\n").first(where: {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("args:")
            }),
            let json = argsLine.split(separator: ":", maxSplits: 1).last,
            let all = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
        else { throw Failure(description: "no compile command for \(module) in the build manifest") }
        let paired: Set = [
            "-I", "-Xcc", "-target", "-swift-version", "-module-cache-path", "-enable-upcoming-feature",
            "-enable-experimental-feature", "-package-name",
        ]
        var kept: [String] = []
        var index = 0
        while index < all.count {
            if paired.contains(all[index]), index + 1 < all.count {
                kept += [all[index], all[index + 1]]
                index += 2
            } else {
                if all[index].hasPrefix("-I") { kept.append(all[index]) }
                index += 1
            }
        }
        arguments = kept
    }

    /// Compiles `source` as one file of a plugin module, through SIL's mandatory diagnostics (where a
    /// non-escapable value's escapes are found), writing nothing.
    func typecheck(_ source: String) async throws -> ToolRun {
        try await ToolRun(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swiftc", "-emit-sil", "-o", "/dev/null", "-module-name", "BypassPlugin"] + arguments, on: source)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
