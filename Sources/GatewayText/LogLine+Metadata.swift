import Logging

extension LogLine {
    /// swift-log metadata from several sources as one field list in key order, a later source's value
    /// winning for a key given twice: a sort of a few pairs, instead of merging dictionaries.
    package static func fields(_ sources: Logger.Metadata?...) -> [(key: String, value: Logger.Metadata.Value)] {
        var fields: [(key: String, value: Logger.Metadata.Value)] = []
        for source in sources { if let source { fields += source } }
        // Stable, so of two equal keys the later source's stays last; UTF-8 order is code point order.
        fields.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        var kept = 0
        for index in fields.indices {
            if kept > 0, fields[kept - 1].key == fields[index].key { kept -= 1 }
            fields.swapAt(kept, index)
            kept += 1
        }
        fields.removeLast(fields.count - kept)
        return fields
    }
}

/// A request line's own fields (``RequestLineFields``) with an answer's fields merged in, all in key order;
/// for a key in both, the request's value wins. Written straight into the line, like a request line without
/// an answer's fields.
package struct MergedLineFields: ~Copyable, LogFields {
    private var line: LogLine
    private let extra: [(key: String, value: Logger.Metadata.Value)]
    private var next = 0

    package init(_ line: consuming LogLine, answerFields: Logger.Metadata) {
        self.line = line
        extra = LogLine.fields(answerFields)
    }

    package mutating func add(plain key: StaticString, _ value: String) {
        addExtra(before: key)
        line.add(plain: key, value)
    }

    package mutating func add(plain key: StaticString, _ value: Int, fractionDigits: Int) {
        addExtra(before: key)
        line.add(plain: key, value, fractionDigits: fractionDigits)
    }

    /// The line with the answer's remaining fields added, ready to write.
    package consuming func finished() -> LogLine {
        while next < extra.count {
            line.add(extra[next].key, extra[next].value.description)
            next += 1
        }
        return line
    }

    /// Adds the answer's fields that sort before `key`, and skips one named `key`.
    private mutating func addExtra(before key: StaticString) {
        while next < extra.count {
            let (name, value) = extra[next]
            let comesFirst = key.withUTF8Buffer { name.utf8.lexicographicallyPrecedes($0) }
            let same = !comesFirst && key.withUTF8Buffer { name.utf8.elementsEqual($0) }
            guard comesFirst || same else { return }
            if comesFirst { line.add(name, value.description) }
            next += 1
        }
    }
}
