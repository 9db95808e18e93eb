#if canImport(Glibc)
    import Glibc
#endif

/// A byte range of a file that a response streams as its body, in bounded chunks: the file is never
/// held in memory, and a client that goes away stops the reading.
package struct FileSlice: Sendable, Equatable {
    /// An absolute path the handler has already checked (inside `content.root`, no symlinks out).
    package let path: String
    package let offset: Int
    package let length: Int

    package init(path: String, offset: Int, length: Int) {
        self.path = path
        self.offset = offset
        self.length = length
    }

    /// How much is read and handed on at a time.
    package static let chunkSize = 256 << 10

    /// Reads the slice chunk by chunk into `write`, which returns false when the client went away.
    /// Returns false when the file could not be read in full or the client went away.
    package func stream(_ write: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var position = offset
        let end = offset + length
        while position < end {
            let count = pread(descriptor, buffer.baseAddress, min(Self.chunkSize, end - position), off_t(position))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            guard write(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else { return false }
            position += count
        }
        return true
    }
}
