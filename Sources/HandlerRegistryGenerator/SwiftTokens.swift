/// The tokens of Swift source that matter to the check of outside sources, with comments dropped (nested block
/// comments too) so that no comment can stand between an attribute and what it applies to: identifiers and
/// keywords, attributes (`@name`), string literals (their text as written, escapes and all), and `(` `)` `.`.
/// Other punctuation is dropped.
///
/// Read with `regexLiterals`, a regex literal (`#/…/#`, and `/…/` where Swift lexes one: after a space, an opening
/// bracket, a comma or an operator, not followed by a space, closed on its line) is one token, so a quote inside it
/// starts no string; read without, it is punctuation and its text words, as before regex literals existed. The
/// check reads a file both ways, so a file must be harmless to both readings.
struct SwiftTokens {
    enum Kind: Equatable {
        case word, attribute, string, regex, open, close, dot
    }

    struct Token {
        let kind: Kind
        let text: String
        let line: Int
    }

    let tokens: [Token]

    init(_ text: String, regexLiterals: Bool = true) {
        var tokens: [Token] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var line = 1
        func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
        func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" || (scalar == "\r" && peek(1) != "\n") { line += 1 }
            if scalar == "/", peek(1) == "/" {
                // Up to the line's end, which the next turn counts.
                while index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" { index += 1 }
                continue
            } else if scalar == "/", peek(1) == "*" {
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
                continue
            } else if regexLiterals, let end = Self.regexLiteralEnd(in: scalars, at: index) {
                let literal = String(String.UnicodeScalarView(scalars[index..<end]))
                tokens.append(Token(kind: .regex, text: literal, line: line))
                line += literal.unicodeScalars.filter { $0 == "\n" }.count
                index = end
                continue
            } else if scalar == "\"" || (scalar == "#" && (peek(1) == "\"" || peek(1) == "#")) {
                let start = index
                let startLine = line
                var hashes = 0
                while index < scalars.count, scalars[index] == "#" {
                    hashes += 1
                    index += 1
                }
                let multiline = peek(0) == "\"" && peek(1) == "\"" && peek(2) == "\""
                let quotes = multiline ? 3 : 1
                index += quotes
                // The literal ends at the quotes followed by as many `#` as it opened with, past any escape.
                while index < scalars.count {
                    if scalars[index] == "\n" { line += 1 }
                    if scalars[index] == "\\", hashes == 0 {
                        index += 2
                        continue
                    }
                    if scalars[index] == "\"", (0..<quotes).allSatisfy({ peek($0) == "\"" }),
                        (0..<hashes).allSatisfy({ peek(quotes + $0) == "#" })
                    {
                        index += quotes + hashes
                        break
                    }
                    index += 1
                }
                let literal = String(String.UnicodeScalarView(scalars[start..<min(index, scalars.count)]))
                tokens.append(Token(kind: .string, text: literal, line: startLine))
                continue
            } else if scalar == "@" {
                index += 1
                while index < scalars.count, scalars[index].properties.isWhitespace, scalars[index] != "\n" {
                    index += 1
                }
                let start = index
                while index < scalars.count, isWordScalar(scalars[index]) { index += 1 }
                let name = String(String.UnicodeScalarView(scalars[start..<index]))
                tokens.append(Token(kind: .attribute, text: "@" + name, line: line))
                continue
            } else if scalar == "`" {
                index += 1
                continue
            } else if isWordScalar(scalar) {
                let start = index
                while index < scalars.count, isWordScalar(scalars[index]) { index += 1 }
                tokens.append(
                    Token(kind: .word, text: String(String.UnicodeScalarView(scalars[start..<index])), line: line))
                continue
            } else if scalar == "(" {
                tokens.append(Token(kind: .open, text: "(", line: line))
            } else if scalar == ")" {
                tokens.append(Token(kind: .close, text: ")", line: line))
            } else if scalar == "." {
                tokens.append(Token(kind: .dot, text: ".", line: line))
            }
            index += 1
        }
        self.tokens = tokens
    }

    /// The end of the regex literal that starts at `index`, if one does: `#/…/#` with as many `#` on both sides
    /// (lines allowed), or a bare `/…/` in prefix position that does not start with a space, `=` or `)` and ends
    /// on its line (an escaped `/` does not end it).
    private static func regexLiteralEnd(in scalars: [Unicode.Scalar], at index: Int) -> Int? {
        var hashes = 0
        while index + hashes < scalars.count, scalars[index + hashes] == "#" { hashes += 1 }
        guard index + hashes < scalars.count, scalars[index + hashes] == "/" else { return nil }
        let body = index + hashes + 1
        if hashes == 0 {
            guard body < scalars.count, !" \t\r\n=)/*".unicodeScalars.contains(scalars[body]) else { return nil }
            if index > 0, !" \t\r\n([{,;:=!&|^?+-*%<>~".unicodeScalars.contains(scalars[index - 1]) { return nil }
        }
        var position = body
        while position < scalars.count {
            let scalar = scalars[position]
            if hashes == 0, scalar == "\n" || scalar == "\r" { return nil }
            if scalar == "\\" {
                position += 2
                continue
            }
            if scalar == "/",
                (0..<hashes).allSatisfy({ position + 1 + $0 < scalars.count && scalars[position + 1 + $0] == "#" })
            {
                return position + 1 + hashes
            }
            position += 1
        }
        return nil
    }

    /// The index after the parenthesised group that starts at `index` (balanced), or `index` when none does.
    func skippingGroup(at index: Int) -> Int {
        guard index < tokens.count, tokens[index].kind == .open else { return index }
        var depth = 0
        var position = index
        while position < tokens.count {
            if tokens[position].kind == .open { depth += 1 }
            if tokens[position].kind == .close {
                depth -= 1
                if depth == 0 { return position + 1 }
            }
            position += 1
        }
        return position
    }
}
