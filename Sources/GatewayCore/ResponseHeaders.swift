#if canImport(Glibc)
    import Glibc
#endif

/// A response's headers as the lines they are sent as (`Name: value\r\n`), in order, packed in one byte
/// array: handing a response on or writing its head moves one buffer instead of two strings per header, and
/// a handler's fixed headers are rendered once, when it is built.
///
/// A header whose name or value holds CR or LF is dropped when it is added: it could split the response.
/// `Content-Length` and `X-Request-Id` are not added here; the transport writes them.
public struct ResponseHeaders: Sendable, ExpressibleByArrayLiteral {
    /// The header lines, each ending in CR LF.
    public private(set) var lines: [UInt8] = []

    public init() {}

    /// `(name, value)` pairs, such as `("Cache-Control", "no-store")`, in the order they are sent.
    public init(_ pairs: [(name: String, value: String)]) {
        for (name, value) in pairs { add(name, value) }
    }

    public init(arrayLiteral pairs: (name: String, value: String)...) {
        self.init(pairs)
    }

    /// Adds `name: value` after the headers already here, unless either holds CR or LF.
    public mutating func add(_ name: String, _ value: String) {
        guard Self.canCarry(name), Self.canCarry(value) else { return }
        lines.reserveCapacity(lines.count + name.utf8.count + value.utf8.count + 4)
        lines.append(contentsOf: name.utf8)
        lines.append(UInt8(ascii: ":"))
        lines.append(UInt8(ascii: " "))
        lines.append(contentsOf: value.utf8)
        lines.append(UInt8(ascii: "\r"))
        lines.append(UInt8(ascii: "\n"))
    }

    /// These headers followed by `more`.
    public static func + (headers: ResponseHeaders, more: ResponseHeaders) -> ResponseHeaders {
        var all = headers
        all.lines += more.lines
        return all
    }

    public var isEmpty: Bool { lines.isEmpty }

    /// Each header as `(name, value)`, in the order they are sent.
    public var pairs: [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        var lineStart = 0
        var index = 0
        // Lines are known to be `name: value\r\n` with no CR or LF inside, so the first CR ends each one.
        while index < lines.count {
            if lines[index] == UInt8(ascii: "\r") {
                let line = lines[lineStart..<index]
                let colon = line.firstIndex(of: UInt8(ascii: ":"))!
                pairs.append(
                    (
                        String(decoding: line[..<colon], as: UTF8.self),
                        String(decoding: line[(colon + 2)...], as: UTF8.self)
                    ))
                index += 2
                lineStart = index
            } else {
                index += 1
            }
        }
        return pairs
    }

    /// The value of the first header with this name, compared case-insensitively.
    public func value(named name: String) -> String? {
        let lowered = name.lowercased()
        return pairs.first { $0.name.lowercased() == lowered }?.value
    }

    /// Whether `text` may stand in a header line: it holds no CR or LF, which could split the response.
    public static func canCarry(_ text: String) -> Bool {
        text.withUTF8Bytes { bytes in
            guard let base = bytes.baseAddress else { return true }
            return memchr(base, 13, bytes.count) == nil && memchr(base, 10, bytes.count) == nil
        }
    }
}
