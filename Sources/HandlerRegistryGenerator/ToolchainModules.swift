import Foundation

/// The modules the toolchain provides: its Swift modules (`Synchronization`, `Foundation`, `Glibc`, ...) and the
/// C modules of its module maps (`SwiftGlibc`, `CoreFoundation`, `Dispatch`, ...), found beside the Swift runtime
/// this generator runs with (the toolchain that builds the package).
///
/// SwiftPM writes every module of a build into one folder that the compiler searches before the toolchain's, so a
/// module from outside named like one of these is taken for it by every module compiled after it, the gateway's
/// own among them (a twenty-eighth reviewer's `Synchronization` read what every `Mutex` of the gateway guarded).
enum ToolchainModules {
    static let names: Set<String> = {
        guard let runtime = runtimeFolder() else { return [] }
        var names: Set<String> = []
        let files = FileManager.default
        for entry in (try? files.contentsOfDirectory(atPath: runtime.path)) ?? [] {
            for suffix in [".swiftmodule", ".swiftinterface", ".swiftcrossimport"] where entry.hasSuffix(suffix) {
                names.insert(String(entry.dropLast(suffix.count)))
            }
        }
        // usr/lib/swift: the module maps of the runtime's C parts, Foundation's, Dispatch's, the platform's.
        let walk = files.enumerator(at: runtime.deletingLastPathComponent(), includingPropertiesForKeys: nil)
        while let file = walk?.nextObject() as? URL {
            guard file.pathExtension == "modulemap", let text = try? String(contentsOf: file, encoding: .utf8) else {
                continue
            }
            for line in text.split(whereSeparator: \.isNewline) {
                let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "{" })
                guard let at = words.firstIndex(of: "module"), at + 1 < words.count else { continue }
                names.insert(String(words[at + 1]))
            }
        }
        return names
    }()

    /// The folder of the Swift runtime (`libswiftCore.so`) mapped into this process.
    private static func runtimeFolder() -> URL? {
        let maps = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data()
        for line in String(decoding: maps, as: UTF8.self).split(separator: "\n") {
            guard let path = line.split(separator: " ").last, path.hasSuffix("/libswiftCore.so") else { continue }
            return URL(fileURLWithPath: String(path)).deletingLastPathComponent()
        }
        return nil
    }
}
