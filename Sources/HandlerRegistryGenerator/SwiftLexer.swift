/// Reads Swift source into ``SwiftTokens``: code, and inside a string literal its interpolations as code again.
struct SwiftLexer {
    let scalars: [Unicode.Scalar]
    let regexLiterals: Bool
    private(set) var tokens: [SwiftTokens.Token] = []
    private var index = 0
    private var line = 1

    init(scalars: [Unicode.Scalar], regexLiterals: Bool) {
        self.scalars = scalars
        self.regexLiterals = regexLiterals
    }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }

    private func text(_ range: Range<Int>) -> String {
        String(String.UnicodeScalarView(scalars[range.clamped(to: 0..<scalars.count)]))
    }

    /// Reads code up to the end, or, for an interpolation, up to the `)` that closes it (read too).
    mutating func lex(closingInterpolation: Bool) {
        var depth = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" || (scalar == "\r" && peek(1) != "\n") { line += 1 }
            if scalar == "/", peek(1) == "/" {
                // Up to the line's end, which the next turn counts.
                while index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" { index += 1 }
            } else if scalar == "/", peek(1) == "*" {
                skipBlockComment()
            } else if regexLiterals, let end = SwiftTokens.regexLiteralEnd(in: scalars, at: index) {
                let literal = text(index..<end)
                tokens.append(.init(kind: .regex, text: literal, line: line))
                line += literal.unicodeScalars.filter { $0 == "\n" }.count
                index = end
            } else if scalar == "\"" || (scalar == "#" && (peek(1) == "\"" || peek(1) == "#")) {
                lexString()
            } else if scalar == "@" {
                index += 1
                while index < scalars.count, scalars[index].properties.isWhitespace, scalars[index] != "\n" {
                    index += 1
                }
                // The name may be in backticks (@`testable`), as Swift accepts.
                let quoted = peek(0) == "`"
                if quoted { index += 1 }
                let start = index
                while index < scalars.count, Self.isWordScalar(scalars[index]) { index += 1 }
                tokens.append(.init(kind: .attribute, text: "@" + text(start..<index), line: line))
                if quoted, peek(0) == "`" { index += 1 }
            } else if scalar == "`", let end = rawIdentifierEnd() {
                // A name in backticks, which since Swift 6.2 may hold any character but a backtick or a line end
                // (`a"b`): one word, so a quote, `/*` or `//` inside it opens nothing.
                tokens.append(.init(kind: .word, text: text((index + 1)..<end), line: line))
                index = end + 1
            } else if Self.isWordScalar(scalar) {
                let start = index
                while index < scalars.count, Self.isWordScalar(scalars[index]) { index += 1 }
                tokens.append(.init(kind: .word, text: text(start..<index), line: line))
            } else {
                index += 1
                switch scalar {
                case "(":
                    depth += 1
                    tokens.append(.init(kind: .open, text: "(", line: line))
                case ")":
                    if closingInterpolation, depth == 0 { return }
                    depth -= 1
                    tokens.append(.init(kind: .close, text: ")", line: line))
                case ".": tokens.append(.init(kind: .dot, text: ".", line: line))
                default: break  // backticks and other punctuation
                }
            }
        }
    }

    private mutating func skipBlockComment() {
        var depth = 0
        repeat {
            if scalars[index] == "/", peek(1) == "*" {
                depth += 1
                index += 2
            } else if scalars[index] == "*", peek(1) == "/" {
                depth -= 1
                index += 2
            } else {
                if scalars[index] == "\n" { line += 1 }
                index += 1
            }
        } while depth > 0 && index < scalars.count
    }

    /// The index of the backtick that closes the one at `index`, on its line.
    private func rawIdentifierEnd() -> Int? {
        var position = index + 1
        while position < scalars.count, scalars[position] != "\n", scalars[position] != "\r" {
            if scalars[position] == "`" { return position }
            position += 1
        }
        return nil
    }

    /// Whether the `"""` at `index` opens a one-line raw string, as Swift reads `#"""#` (a quote): with `hashes`,
    /// a quote and as many `#` later on its line close it.
    private func closesOnItsLine(hashes: Int) -> Bool {
        guard hashes > 0 else { return false }
        var position = index + 2
        while position < scalars.count, scalars[position] != "\n", scalars[position] != "\r" {
            if scalars[position] == "\"",
                (0..<hashes).allSatisfy({ position + 1 + $0 < scalars.count && scalars[position + 1 + $0] == "#" })
            {
                return true
            }
            position += 1
        }
        return false
    }

    /// A string literal, plain, raw (`#"…"#`) or multi-line, as one token (its text as written), after the tokens
    /// of its interpolations.
    private mutating func lexString() {
        let start = index
        let startLine = line
        var hashes = 0
        while index < scalars.count, scalars[index] == "#" {
            hashes += 1
            index += 1
        }
        let quotes = peek(0) == "\"" && peek(1) == "\"" && peek(2) == "\"" && !closesOnItsLine(hashes: hashes) ? 3 : 1
        index += quotes
        // The literal ends at the quotes followed by as many `#` as it opened with, past any escape.
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" { line += 1 }
            if scalar == "\\", (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
                let after = index + 1 + hashes
                if after < scalars.count, scalars[after] == "(" {
                    index = after + 1
                    lex(closingInterpolation: true)
                    continue
                }
                // An escape: the character after it is not the literal's end.
                if after < scalars.count, scalars[after] == "\n" { line += 1 }
                index = after + 1
                continue
            }
            if scalar == "\"", (0..<quotes).allSatisfy({ peek($0) == "\"" }),
                (0..<hashes).allSatisfy({ peek(quotes + $0) == "#" })
            {
                index += quotes + hashes
                break
            }
            index += 1
        }
        tokens.append(.init(kind: .string, text: text(start..<index), line: startLine))
    }
}
