/// The tokens of Swift source that matter to the check of outside sources, with comments dropped (nested block
/// comments too) so that no comment can stand between an attribute and what it applies to: identifiers and
/// keywords, attributes (`@name`), string literals (their text as written, escapes and all), and `(` `)` `.`.
/// Other punctuation is dropped.
struct SwiftTokens {
    enum Kind: Equatable {
        case word, attribute, string, open, close, dot
    }

    struct Token {
        let kind: Kind
        let text: String
        let line: Int
    }

    let tokens: [Token]

    init(_ text: String) {
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
