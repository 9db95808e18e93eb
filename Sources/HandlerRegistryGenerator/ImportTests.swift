import Foundation

/// The module names the gateway's packages test for with `#if canImport(…)`, each with a file that tests it.
///
/// A module of that name in the build turns such a test true for every module compiled after it, which then
/// imports it in place of what it imports otherwise: GRDB, which the ledger builds on, imports `string_h` when it
/// can, and Glibc when not; a thirtieth reviewer's module named `string_h` was imported by GRDB, and its overload of
/// `Unmanaged.fromOpaque` was handed the ledger's writer connection. Names read from the sources themselves, not a
/// list: such a name need not exist on any platform this builds on (`xlocale`, `locale_h`, `wasi_pthread`).
enum ImportTests {
    /// Each name tested with `canImport` in `files` (its first component, for a submodule), and the first file,
    /// in path order, that tests it. Words, not Swift: a test in a comment or an inactive branch counts too (a
    /// name refused needlessly costs a rename).
    static func names(in files: [String]) -> [String: String] {
        let word = Data("canImport".utf8)
        var names: [String: String] = [:]
        for file in files.sorted() {
            // Most files test nothing: looking for the word in their bytes first took the scan of the gateway's
            // 2,411 files from 0.87 s to 0.32 s (debug build), on every build that checks a handler module.
            guard let data = FileManager.default.contents(atPath: file), data.range(of: word) != nil else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for piece in text.split(separator: "canImport", omittingEmptySubsequences: false).dropFirst() {
                guard let name = testedName(after: piece) else { continue }
                if names[name] == nil { names[name] = file }
            }
        }
        return names
    }

    /// The module name in `(` `name` … that follows a `canImport`, through spaces, line ends, comments and a
    /// backtick (Swift reads `canImport(` and a name on the next line, or after a comment, as one test: a
    /// thirty-first reviewer's).
    private static func testedName(after text: Substring) -> String? {
        var rest = skippingSpace(text)
        guard rest.first == "(" else { return nil }
        rest = skippingSpace(rest.dropFirst())
        if rest.first == "`" { rest = rest.dropFirst() }
        let name = rest.prefix { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        guard let first = name.first, !first.isNumber else { return nil }
        return String(name)
    }

    /// `text` after any spaces, line ends and comments it starts with.
    private static func skippingSpace(_ text: Substring) -> Substring {
        var rest = text
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("//") {
                rest = rest.drop { !$0.isNewline }
            } else if rest.hasPrefix("/*") {
                var depth = 0
                repeat {
                    if rest.hasPrefix("/*") {
                        depth += 1
                        rest = rest.dropFirst(2)
                    } else if rest.hasPrefix("*/") {
                        depth -= 1
                        rest = rest.dropFirst(2)
                    } else {
                        rest = rest.dropFirst()
                    }
                } while depth > 0 && !rest.isEmpty
            } else {
                return rest
            }
        }
    }
}
