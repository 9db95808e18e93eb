#if canImport(Glibc)
    import Glibc
#endif

/// A request's HTTP headers under their CGI names (`HTTP_IF_NONE_MATCH`), as web servers pass them, packed in
/// one buffer: a request costs one allocation for all its headers, and a header becomes a `String` only when
/// a handler asks for it. Immutable once made. Each entry is the name's and the value's byte counts, then their bytes.
public struct RequestHeaders: @unchecked Sendable {  // its storage is written only while it is made
    /// The entries, tail-allocated after their byte count: one allocation, and a class whose type metadata
    /// is static (an `Array`'s storage type is looked up at run time for each new array).
    private final class Storage: ManagedBuffer<Int, UInt8> {}
    private var storage: Storage?

    public init() {}

    /// `(CGI name, value)` pairs, such as `("HTTP_IF_NONE_MATCH", "\"v1\"")`.
    public init(_ pairs: [(name: String, value: String)]) {
        let byteCount = pairs.reduce(0) {
            $0 + Self.entryByteCount(name: $1.name.utf8.count, value: $1.value.utf8.count)
        }
        self.init(byteCount: byteCount) { writer in
            for (name, value) in pairs {
                var name = name
                var value = value
                name.withUTF8 { name in
                    value.withUTF8 {
                        writer.append(cgiName: UnsafeRawBufferPointer(name), value: UnsafeRawBufferPointer($0))
                    }
                }
            }
        }
    }

    /// Headers written in place by `fill`, whose entries take at most `byteCount` bytes (the sum of
    /// ``entryByteCount(name:value:)``, or a bound of it): one allocation, no growth. The transport's: a writer
    /// swapped with another one's in `fill` would count its bytes as this storage's, so it traps.
    package init(byteCount: Int, _ fill: (inout Writer) -> Void) {
        guard byteCount > 0 else { return }
        let storage = unsafeDowncast(Storage.create(minimumCapacity: byteCount) { _ in 0 }, to: Storage.self)
        storage.withUnsafeMutablePointers { count, elements in
            var writer = Writer(buffer: UnsafeMutableRawBufferPointer(start: elements, count: byteCount))
            fill(&writer)
            precondition(writer.buffer.baseAddress == UnsafeMutableRawPointer(elements), "another storage's writer")
            count.pointee = writer.offset
        }
        self.storage = storage
    }

    /// The bytes one header takes: its name's and value's byte counts, then both.
    package static func entryByteCount(name: Int, value: Int) -> Int { 8 + name + value }

    /// Writes entries into the room ``init(byteCount:_:)`` made.
    package struct Writer: ~Copyable {
        fileprivate let buffer: UnsafeMutableRawBufferPointer
        fileprivate var offset = 0

        /// Adds a header under its CGI name.
        package mutating func append(cgiName name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            let entry = entryByteCount(name: name.count, value: value.count)
            precondition(offset + entry <= buffer.count, "more header bytes than the byte count given")
            buffer.storeBytes(
                of: UInt32(truncatingIfNeeded: name.count).littleEndian, toByteOffset: offset, as: UInt32.self)
            buffer.storeBytes(
                of: UInt32(truncatingIfNeeded: value.count).littleEndian, toByteOffset: offset + 4, as: UInt32.self)
            if let base = name.baseAddress { memcpy(buffer.baseAddress! + offset + 8, base, name.count) }
            if let base = value.baseAddress { memcpy(buffer.baseAddress! + offset + 8 + name.count, base, value.count) }
            offset += entry
        }
    }

    /// The value of the first header called `name` (`If-None-Match`), compared case-insensitively. Entries
    /// whose length differs are skipped unread; every request looks up one or two headers.
    public func value(named name: String) -> String? {
        // A native string's bytes are read in place: copying it to call `withUTF8` cost a quarter of a lookup.
        if let found = name.utf8.withContiguousStorageIfAvailable({ value(named: $0) }) { return found }
        var name = name
        return name.withUTF8 { value(named: $0) }
    }

    private func value(named name: UnsafeBufferPointer<UInt8>) -> String? {
        guard let storage else { return nil }
        return storage.withUnsafeMutablePointers { count, elements -> String? in
            let entries = UnsafeRawPointer(elements)
            let wanted = name.count + 5
            var offset = 0
            while offset + 8 <= count.pointee {
                let nameCount = Int(
                    UInt32(littleEndian: entries.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                let valueCount = Int(
                    UInt32(littleEndian: entries.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)))
                let nameStart = offset + 8
                offset = nameStart + nameCount + valueCount
                guard nameCount == wanted,
                    Self.isCGIName(UnsafeRawBufferPointer(start: entries + nameStart, count: nameCount), of: name)
                else { continue }
                return String(
                    decoding: UnsafeRawBufferPointer(start: entries + nameStart + nameCount, count: valueCount),
                    as: UTF8.self)
            }
            return nil
        }
    }

    /// Whether `cgiName` (`HTTP_IF_NONE_MATCH`) is the CGI form of header `name` (`If-None-Match`).
    static func isCGIName(_ cgiName: UnsafeRawBufferPointer, of name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard cgiName.count == name.count + 5, memcmp(cgiName.baseAddress!, "HTTP_", 5) == 0 else { return false }
        for index in 0..<name.count {
            let byte = name[index]
            let expected: UInt8 =
                switch byte {
                case UInt8(ascii: "-"): UInt8(ascii: "_")
                case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - 32
                default: byte
                }
            if cgiName[index + 5] != expected { return false }
        }
        return true
    }
}
