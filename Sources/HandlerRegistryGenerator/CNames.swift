/// A C-family file's text as the compiler reads its names, before the preprocessor runs its directives
/// (translation phases 1 to 6): trigraphs replaced, lines spliced at a backslash-newline, comments gone,
/// escapes decoded (in strings, and universal character names in identifiers), raw strings read as written,
/// and adjacent string literals joined. A mangled name spelled with `\141`, `\x61`, a comment between two
/// literals or a spliced line (a fourteenth reviewer's) reads whole here. Line ends are kept, so lines still
/// count; what a spliced line removes is put back at the next line end.
struct CNames {
    private let input: [UInt8]
    private var output: [UInt8] = []
    private var index = 0
    /// Line ends taken out by splices, put back at the next line end.
    private var owedLineEnds = 0

    /// `bytes` read as described above.
    static func reading(_ bytes: [UInt8]) -> [UInt8] {
        var reader = CNames(input: phaseTwo(phaseOne(bytes)))
        reader.read()
        return reader.output
    }

    private init(input: [UInt8]) {
        self.input = input
        output.reserveCapacity(input.count)
    }

    /// Trigraphs (`??/` is a backslash in ISO C modes).
    private static func phaseOne(_ bytes: [UInt8]) -> [UInt8] {
        let replacements: [UInt8: UInt8] = [
            ascii("/"): ascii("\\"), ascii("="): ascii("#"), ascii("'"): ascii("^"), ascii("("): ascii("["),
            ascii(")"): ascii("]"), ascii("!"): ascii("|"), ascii("<"): ascii("{"), ascii(">"): ascii("}"),
            ascii("-"): ascii("~"),
        ]
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == ascii("?"), index + 2 < bytes.count, bytes[index + 1] == ascii("?"),
                let replacement = replacements[bytes[index + 2]]
            {
                result.append(replacement)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// Splices: a backslash, any spaces or tabs (clang allows them), then a line end, is taken out; the line end
    /// is marked with a NUL so that the reading can count it.
    private static func phaseTwo(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == ascii("\\") {
                var next = index + 1
                while next < bytes.count, bytes[next] == ascii(" ") || bytes[next] == ascii("\t") { next += 1 }
                if next < bytes.count, bytes[next] == ascii("\n") || bytes[next] == ascii("\r") {
                    next +=
                        bytes[next] == ascii("\r") && next + 1 < bytes.count && bytes[next + 1] == ascii("\n") ? 2 : 1
                    result.append(0)
                    index = next
                    continue
                }
            }
            result.append(bytes[index])
            index += 1
        }
        return result
    }

    private static func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(character.value) }

    private func peek(_ offset: Int = 0) -> UInt8? { index + offset < input.count ? input[index + offset] : nil }

    private mutating func emit(_ byte: UInt8) {
        output.append(byte)
        if byte == Self.ascii("\n") {
            output += [UInt8](repeating: Self.ascii("\n"), count: owedLineEnds)
            owedLineEnds = 0
        }
    }

    private mutating func read() {
        while let byte = peek() {
            if byte == 0 {
                owedLineEnds += 1
                index += 1
            } else if byte == Self.ascii("/"), peek(1) == Self.ascii("/") || peek(1) == Self.ascii("*") {
                skipComment()
                emit(Self.ascii(" "))
            } else if let opening = stringOpening() {
                readStrings(from: opening)
            } else if byte == Self.ascii("'") {
                index += 1
                readQuoted(until: Self.ascii("'"))
            } else if byte == Self.ascii("\\"), let decoded = universalName() {
                output += decoded
            } else {
                emit(byte)
                index += 1
            }
        }
    }

    /// Skips the comment at `index` (its line ends are kept for counting).
    private mutating func skipComment() {
        let block = peek(1) == Self.ascii("*")
        index += 2
        while let byte = peek() {
            if byte == 0 { owedLineEnds += 1 }
            if block {
                if byte == Self.ascii("*"), peek(1) == Self.ascii("/") {
                    index += 2
                    return
                }
                if byte == Self.ascii("\n") { emit(byte) }
            } else if byte == Self.ascii("\n") {
                return
            }
            index += 1
        }
    }

    /// Where a string literal opens at `index` (after its prefix: `u8`, `u`, `U`, `L`, and `R` for a raw one),
    /// and whether it is raw; nil when none does, or the prefix is the end of a longer name.
    private func stringOpening() -> (quote: Int, raw: Bool)? {
        if index > 0, Self.isNameByte(input[index - 1]) { return peek() == Self.ascii("\"") ? (index, false) : nil }
        for prefix in ["u8R", "uR", "UR", "LR", "R", "u8", "u", "U", "L", ""] {
            let bytes = Array(prefix.utf8)
            if index + bytes.count < input.count, Array(input[index..<index + bytes.count]) == bytes,
                input[index + bytes.count] == Self.ascii("\"")
            {
                return (index + bytes.count, prefix.hasSuffix("R"))
            }
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte == ascii("_") || byte == ascii("$") || (byte >= ascii("0") && byte <= ascii("9"))
            || (byte | 0x20 >= ascii("a") && byte | 0x20 <= ascii("z")) || byte >= 0x80
    }

    /// Reads the string literal opening at `opening` and every one adjacent to it (only spaces and comments
    /// between), as one literal with its escapes decoded.
    private mutating func readStrings(from opening: (quote: Int, raw: Bool)) {
        emit(Self.ascii("\""))
        var current = opening
        while true {
            index = current.quote + 1
            if current.raw { readRaw() } else { readQuoted(until: Self.ascii("\""), emitting: false) }
            // Look past spaces and comments for another literal.
            let end = index
            let owed = owedLineEnds
            while let byte = peek() {
                if byte == Self.ascii(" ") || byte == Self.ascii("\t") || byte == Self.ascii("\n")
                    || byte == Self.ascii("\r") || byte == 0x0B || byte == 0x0C || byte == 0
                {
                    if byte == Self.ascii("\n") || byte == 0 { owedLineEnds += 1 }
                    index += 1
                } else if byte == Self.ascii("/"), peek(1) == Self.ascii("/") || peek(1) == Self.ascii("*") {
                    let before = output.count
                    skipComment()
                    owedLineEnds += output.count - before
                    output.removeSubrange(before...)
                } else {
                    break
                }
            }
            guard let next = stringOpening() else {
                index = end
                owedLineEnds = owed
                emit(Self.ascii("\""))
                return
            }
            current = next
        }
    }

    /// A raw string's text (`delimiter( … )delimiter"`), as written.
    private mutating func readRaw() {
        var delimiter: [UInt8] = []
        while let byte = peek(), byte != Self.ascii("(") {
            delimiter.append(byte)
            index += 1
        }
        index += 1
        let closing = [Self.ascii(")")] + delimiter + [Self.ascii("\"")]
        while index < input.count {
            if index + closing.count <= input.count, Array(input[index..<index + closing.count]) == closing {
                index += closing.count
                return
            }
            if input[index] != 0 { output.append(input[index]) }
            index += 1
        }
    }

    /// A quoted literal's text up to `quote`, escapes decoded (the opening quote is already read); with
    /// `emitting`, its quotes are written around it.
    private mutating func readQuoted(until quote: UInt8, emitting: Bool = true) {
        if emitting { emit(quote) }
        while let byte = peek() {
            index += 1
            if byte == quote || byte == Self.ascii("\n") { break }
            if byte == 0 {
                owedLineEnds += 1
            } else if byte == Self.ascii("\\") {
                output += decodedEscape()
            } else {
                output.append(byte)
            }
        }
        if emitting { emit(quote) }
    }

    /// The bytes an escape stands for (the backslash is read): octal, `\x` hex, `\u`/`\U`, or the character.
    private mutating func decodedEscape() -> [UInt8] {
        guard let first = peek() else { return [] }
        if first >= Self.ascii("0"), first <= Self.ascii("7") {
            var value = 0
            var count = 0
            while count < 3, let digit = peek(), digit >= Self.ascii("0"), digit <= Self.ascii("7") {
                value = value * 8 + Int(digit - Self.ascii("0"))
                index += 1
                count += 1
            }
            return [UInt8(truncatingIfNeeded: value)]
        }
        if first == Self.ascii("x") {
            index += 1
            var value = 0
            while let digit = peek(), let hex = Self.hexValue(digit) {
                value = (value &* 16 &+ hex) & 0xFFFF_FFFF
                index += 1
            }
            return [UInt8(truncatingIfNeeded: value)]
        }
        if first == Self.ascii("u") || first == Self.ascii("U") {
            index -= 1
            if let decoded = universalName() { return decoded }
            index += 1
        }
        index += 1
        return [first]
    }

    /// The character of the universal character name at `index` (`\u` and four hex digits, `\U` and eight), as
    /// UTF-8; nil, reading nothing, when none stands there.
    private mutating func universalName() -> [UInt8]? {
        guard peek() == Self.ascii("\\"), let kind = peek(1), kind == Self.ascii("u") || kind == Self.ascii("U")
        else { return nil }
        let digits = kind == Self.ascii("u") ? 4 : 8
        var value = 0
        for offset in 0..<digits {
            guard let digit = peek(2 + offset), let hex = Self.hexValue(digit) else { return nil }
            value = value * 16 + hex
        }
        index += 2 + digits
        guard let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: value)) else { return [] }
        return Array(String(Character(scalar)).utf8)
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case ascii("0")...ascii("9"): Int(byte - ascii("0"))
        case ascii("a")...ascii("f"): Int(byte - ascii("a")) + 10
        case ascii("A")...ascii("F"): Int(byte - ascii("A")) + 10
        default: nil
        }
    }
}
