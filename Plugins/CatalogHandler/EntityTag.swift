import Foundation

/// `If-None-Match` comparison (RFC 9110 13.1.2): weak comparison, lists, and `*`.
enum EntityTag {
    /// Whether the header value `list` names `current` (a quoted strong tag).
    static func list(_ list: String, matches current: String) -> Bool {
        list.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            return (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == current
        }
    }
}
