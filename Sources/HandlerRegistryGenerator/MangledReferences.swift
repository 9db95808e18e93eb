/// Finds where a text names a symbol of this package by its mangled name, the way `@_silgen_name`, `@_extern`,
/// `dlsym` or a C declaration would reach one: every Swift symbol spells its module as its length and its name
/// (`$s11GatewayCore15CurrentExchange…`), and the first mention is never abbreviated.
struct MangledReferences {
    /// The modules whose mangled names are looked for, by name length.
    private let modulesByLength: [Int: Set<[UInt8]>]

    init(modules: Set<String>) {
        modulesByLength = Dictionary(grouping: modules.map { Array($0.utf8) }, by: \.count).mapValues(Set.init)
    }

    /// Each module of this package `text` names that way, with its line; one pass over the bytes.
    func find(in text: [UInt8]) -> [(module: String, line: Int)] {
        var found: [(module: String, line: Int)] = []
        var line = 1
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "\n") { line += 1 }
            // A run of digits not preceded by another digit, then the name it counts.
            guard Self.isDigit(byte), index == 0 || !Self.isDigit(text[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            var length = 0
            while end < text.count, Self.isDigit(text[end]), length < 1_000 {
                length = length * 10 + Int(text[end] - UInt8(ascii: "0"))
                end += 1
            }
            if let names = modulesByLength[length], end + length <= text.count {
                let candidate = Array(text[end..<end + length])
                if names.contains(candidate) { found.append((String(decoding: candidate, as: UTF8.self), line)) }
            }
            index = end
        }
        return found
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
