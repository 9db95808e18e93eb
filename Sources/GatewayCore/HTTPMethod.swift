#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP request method, as the web server reports it in `REQUEST_METHOD`.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let delete = HTTPMethod(rawValue: "DELETE")

    /// The method a C string names; the common ones without an allocation (this runs for every request).
    public init(cString: UnsafePointer<CChar>) {
        if strcmp(cString, "GET") == 0 {
            self = .get
        } else if strcmp(cString, "POST") == 0 {
            self = .post
        } else if strcmp(cString, "HEAD") == 0 {
            self = .head
        } else {
            self.init(rawValue: String(cString: cString))
        }
    }

    public var description: String { rawValue }
}
