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
        var names: [String: String] = [:]
        for file in files.sorted() {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for piece in text.split(separator: "canImport", omittingEmptySubsequences: false).dropFirst() {
                guard let name = testedName(after: piece) else { continue }
                if names[name] == nil { names[name] = file }
            }
        }
        return names
    }

    /// The module name in `(` `name` … that follows a `canImport`, through spaces and a backtick.
    private static func testedName(after text: Substring) -> String? {
        var rest = text.drop { $0 == " " || $0 == "\t" }
        guard rest.first == "(" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "`" }
        let name = rest.prefix { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        guard let first = name.first, !first.isNumber else { return nil }
        return String(name)
    }
}
