/// The tokens of Swift source that matter to the check of outside sources, with comments dropped (nested block
/// comments too) so that no comment can stand between an attribute and what it applies to: identifiers and
/// keywords, attributes (`@name`), string literals (their text as written, escapes and all), and `(` `)` `.`.
/// Other punctuation is dropped. An interpolation (`\(…)`, `\#(…)` in a raw string) is read as code, its own
/// literals and comments included, so a quote inside it ends no string.
///
/// Read with `regexLiterals`, a regex literal (`#/…/#`, and `/…/` wherever Swift may lex one: not right after a
/// name, a closing bracket or a quote, not followed by a space, closed on its line) is one token, so a quote inside it
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
        var lexer = SwiftLexer(scalars: Array(text.unicodeScalars), regexLiterals: regexLiterals)
        lexer.lex(closingInterpolation: false)
        tokens = lexer.tokens
    }

    /// The end of the regex literal that starts at `index`, if one does: `#/…/#` with as many `#` on both sides
    /// (lines allowed), or a bare `/…/` in prefix position that does not start with a space, `=` or `)` and ends
    /// on its line (an escaped `/` does not end it).
    static func regexLiteralEnd(in scalars: [Unicode.Scalar], at index: Int) -> Int? {
        var hashes = 0
        while index + hashes < scalars.count, scalars[index + hashes] == "#" { hashes += 1 }
        guard index + hashes < scalars.count, scalars[index + hashes] == "/" else { return nil }
        let body = index + hashes + 1
        if hashes == 0 {
            guard body < scalars.count, !" \t\r\n=)/*".unicodeScalars.contains(scalars[body]) else { return nil }
            // Not after what ends an operand (a name, a closing bracket, a literal's quote); after anything else
            // (any space, any operator, custom ones too) it may be a regex, as Swift may read it.
            if index > 0 {
                let before = scalars[index - 1]
                if before == "_" || before == "$" || before.properties.isAlphabetic || ("0"..."9").contains(before)
                    || ")]}\"`'".unicodeScalars.contains(before)
                {
                    return nil
                }
            }
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
