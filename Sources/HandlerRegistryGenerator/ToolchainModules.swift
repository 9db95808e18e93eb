import Foundation

/// The modules the toolchain provides: its Swift modules (`Synchronization`, `Foundation`, `Glibc`, ...) and the
/// C modules of its module maps (`SwiftGlibc`, `CoreFoundation`, `Dispatch`, ..., and clang's builtin headers'
/// `_Builtin_stddef`, ...), found beside the Swift runtime this generator runs with (the toolchain that builds
/// the package), and the module maps of the system's include folders.
///
/// SwiftPM writes every module of a build into one folder that the compiler searches before the toolchain's, so a
/// module from outside named like one of these is taken for it by every module compiled after it, the gateway's
/// own among them (a twenty-eighth reviewer's `Synchronization` read what every `Mutex` of the gateway guarded).
/// A Swift module named like a C module is that C module's overlay, imported wherever the C module is: a
/// twenty-ninth reviewer's `_Builtin_stddef` came with every `import Foundation` of the gateway's own code. The
/// builtin headers' module map is in clang's resource folder, which `usr/lib/swift/clang` links to; it was not
/// read while the walk did not follow links.
enum ToolchainModules {
    static let names: Set<String> = {
        guard let runtime = runtimeFolder() else { return platformModules }
        var names = platformModules
        let files = FileManager.default
        for entry in (try? files.contentsOfDirectory(atPath: runtime.path)) ?? [] {
            for suffix in [".swiftmodule", ".swiftinterface", ".swiftcrossimport"] where entry.hasSuffix(suffix) {
                names.insert(String(entry.dropLast(suffix.count)))
            }
        }
        for root in moduleMapFolders(swiftLibrary: runtime.deletingLastPathComponent()) {
            let walk = files.enumerator(at: root, includingPropertiesForKeys: nil)
            while let file = walk?.nextObject() as? URL {
                guard file.pathExtension == "modulemap", let text = try? String(contentsOf: file, encoding: .utf8)
                else { continue }
                for line in text.split(whereSeparator: \.isNewline) {
                    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "{" })
                    guard let at = words.firstIndex(of: "module"), at + 1 < words.count else { continue }
                    names.insert(String(words[at + 1]))
                }
            }
        }
        return names
    }()

    /// The modules of other platforms that packages test for with `#if canImport(…)`: not on this machine, so not
    /// read above, yet a module of that name flips the conditional compilation of every module compiled after
    /// it (a twenty-ninth reviewer counted 376 `canImport(Darwin)` in the packages storegate builds with).
    static let platformModules: Set<String> = [
        "Darwin", "Glibc", "Musl", "Bionic", "Android", "WASILibc", "WASIClib", "ucrt", "CRT", "WinSDK",
        "ObjectiveC", "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "CoreFoundation",
        "Dispatch", "os", "Security", "Network", "Combine", "CryptoKit", "CommonCrypto", "LocalAuthentication",
        "SystemConfiguration", "CFNetwork", "CoreServices", "UIKit", "AppKit", "SwiftUI", "Observation",
        "Synchronization", "System", "SystemPackage", "XCTest", "Testing",
    ]

    /// Where module maps the compiler may read lie: usr/lib/swift (the runtime's C parts, Foundation's,
    /// Dispatch's, the platform's) and every folder a link in it leads to (clang's resource folder, with its
    /// builtin headers), and the system's include folders.
    private static func moduleMapFolders(swiftLibrary: URL) -> [URL] {
        let files = FileManager.default
        let linked = ((try? files.contentsOfDirectory(atPath: swiftLibrary.path)) ?? []).compactMap { entry -> URL? in
            let path = swiftLibrary.appendingPathComponent(entry)
            guard (try? files.destinationOfSymbolicLink(atPath: path.path)) != nil else { return nil }
            var isFolder: ObjCBool = false
            let target = path.resolvingSymlinksInPath()
            return files.fileExists(atPath: target.path, isDirectory: &isFolder) && isFolder.boolValue ? target : nil
        }
        let system = ["/usr/include", "/usr/local/include"].map { URL(fileURLWithPath: $0) }
        return [swiftLibrary] + linked + system
    }

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
