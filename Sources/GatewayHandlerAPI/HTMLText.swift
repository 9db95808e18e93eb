/// Text on an HTML page a handler renders (the support desk's, a reader's): the five characters HTML gives
/// meaning to written as character references, so a title, an account id or a query is shown, never read as markup.
public enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as references; safe in element content and quoted attributes.
    public static func escaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
