/// Why the front could not start or serve: a sentence for the operator's log.
package struct FrontError: Error, Sendable, CustomStringConvertible {
    package let message: String

    init(_ message: String) { self.message = message }

    /// `message` followed by the C library's text for `errno`.
    static func system(_ message: String, errno code: Int32 = errno) -> FrontError {
        FrontError("\(message): \(String(cString: strerror(code)))")
    }

    package var description: String { message }
}

#if canImport(Glibc)
    import Glibc
#endif
