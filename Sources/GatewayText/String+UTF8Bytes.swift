extension String {
    /// `body`'s result on the string's UTF-8 bytes: borrowed in place when the string is stored contiguously
    /// (native strings are; no copy, no reference count), else from a copy. For the writers that copy text
    /// into their buffers on every request.
    @inlinable
    package func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
