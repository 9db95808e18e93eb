import Foundation

/// The symbols a built `storegate` defines that a shared library it loads defines too. The binary's definition
/// wins, for the libraries' calls and the gateway's own: a C definition of libfcgi's `FCGX_PutStr` read every
/// answer (a thirty-fourth reviewer's, from a C target; a thirty-fifth's, from a header compiled into a Swift
/// module). The registry's check refuses the ways in it knows; this looks at what the linker made, whatever way
/// a definition came in. Read with binutils' `nm` (the symbol tables) and `ldd` (the libraries the loader finds),
/// which every machine that builds Swift has: reading ELF here would be a parser of our own for what they read.
enum InterposedSymbols {
    /// Symbols a binary defines beside its libraries by nature: the linker's bounds, and the C++ standard
    /// library's inline functions and type data that a header instantiates (weak, the library's own code).
    static let linkerSymbols: Set = ["__bss_start", "_edata", "_end", "_init", "_fini", "__data_start", "data_start"]
    static let standardLibraryPrefixes = ["_ZNSt", "_ZNKSt", "_ZSt", "_ZTISt", "_ZTSSt", "_ZTVSt"]

    /// Each clash: the symbol, and the library that defines it too.
    static func find(in binary: URL) throws -> [(symbol: String, library: String)] {
        var defined: [String: String] = [:]  // name: nm's type letter
        for line in try run("nm", ["--defined-only", "--extern-only", binary.path]).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3 else { continue }
            // A versioned definition (`name@@VERSION`) is the name to the loader.
            defined[String(fields[2].prefix { $0 != "@" })] = String(fields[1])
        }
        var clashes: [(symbol: String, library: String)] = []
        for library in try libraries(of: binary) {
            for line in try run("nm", ["--dynamic", "--defined-only", library]).split(separator: "\n") {
                guard let field = line.split(separator: " ").last else { continue }
                let name = String(field.prefix { $0 != "@" })
                guard let type = defined[name], !isExpected(name, type: type) else { continue }
                clashes.append((name, library))
                defined[name] = nil
            }
        }
        return clashes.sorted { $0.symbol < $1.symbol }
    }

    /// Refuses `binary` when it defines a symbol of a library it loads, naming each (at most twenty), and saying
    /// `consequence` (what becomes of it).
    static func check(_ binary: URL, consequence: String) throws {
        let clashes = try find(in: binary)
        guard !clashes.isEmpty else { return }
        let named = clashes.prefix(20).map { "\($0.symbol) (also in \($0.library))" }.joined(separator: ", ")
        throw BuildProblem(
            "\(binary.path) defines \(clashes.count) symbol(s) of libraries it loads: \(named). The binary's copy "
                + "takes each one's place for the whole process, the gateway's own calls included (a function of "
                + "libfcgi sees every request and answer): a handler module, or a package it brings, defines it in C. "
                + consequence)
    }

    private static func isExpected(_ name: String, type: String) -> Bool {
        linkerSymbols.contains(name)
            || (["W", "V"].contains(type) && standardLibraryPrefixes.contains { name.hasPrefix($0) })
    }

    /// The shared libraries the loader finds for `binary`, all the way down, by path; one it cannot find is a
    /// problem (its symbols cannot be compared).
    private static func libraries(of binary: URL) throws -> [String] {
        let lines = try run("ldd", [binary.path]).split(separator: "\n")
        // ldd indents each line with a tab: words are split at any whitespace (the loader's own line is a path).
        if let missing = lines.first(where: { $0.contains("=> not found") }) {
            throw BuildProblem(
                "the loader cannot find \(missing.split(whereSeparator: \.isWhitespace).first ?? missing) for "
                    + "\(binary.path), so its symbols cannot be compared with the binary's")
        }
        let listed = lines.compactMap { line -> String? in
            let words = line.split(whereSeparator: \.isWhitespace)
            if let arrow = words.firstIndex(of: "=>"), arrow + 1 < words.count, words[arrow + 1].hasPrefix("/") {
                return String(words[arrow + 1])
            }
            return words.first.flatMap { $0.hasPrefix("/") ? String($0) : nil }
        }
        guard !listed.isEmpty else { throw BuildProblem("ldd lists no shared library for \(binary.path)") }
        return Array(Set(listed)).sorted()
    }

    private static func run(_ program: String, _ arguments: [String]) throws -> String {
        let outcome = try Subprocess.run(program, arguments)
        guard outcome.status == 0 else {
            throw BuildProblem(
                "\(program) \(arguments.joined(separator: " ")) failed: "
                    + outcome.errors.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return outcome.output
    }
}
