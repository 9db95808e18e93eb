import GatewayText

#if canImport(Glibc)
    import Glibc
#endif

/// A response's headers as the lines they are sent as (`Name: value\r\n`), in order, packed in one byte
/// array: handing a response on or writing its head moves one buffer instead of two strings per header, and
/// a handler's fixed headers are rendered once, when it is built.
///
/// A header is dropped when it is added if its name is not an HTTP token (RFC 9110 5.6.2: no colon, space or
/// control character, which could start another header or another line) or its value holds CR or LF (which
/// could split the response). So is a header that tells the web server to do something in the gateway's place
/// (`X-Accel-*`, `X-Sendfile*`, `X-LIGHTTPD-*`, `X-LiteSpeed-*`, `X-Reproxy-*`): only the content path answers with content, through
/// ``ContentDelivery``, which the transport writes. `Status`, `Content-Length` and `X-Request-Id` are dropped too:
/// the transport writes them.
public struct ResponseHeaders: Sendable, ExpressibleByArrayLiteral {
    /// The header lines, each ending in CR LF.
    @inlinable public var lines: [UInt8] { bytes }
    /// Stored apart from its public getter: a `private(set)` stored property's key path casts to a writable one
    /// in a handler module (which then wrote an X-Accel-Redirect line past ``add(_:_:)``; found by a fourth
    /// reviewer), a get-only computed property's does not.
    @usableFromInline var bytes: [UInt8] = []
    /// Whether a `Location` header names a path on this server: with status 200 a CGI web server (Apache's
    /// mod_cgi, RFC 3875's local redirect) would serve that path in the gateway's place.
    package private(set) var hasLocalLocation = false

    public init() {}

    /// `(name, value)` pairs, such as `("Cache-Control", "no-store")`, in the order they are sent.
    public init(_ pairs: [(name: String, value: String)]) {
        for (name, value) in pairs { add(name, value) }
    }

    public init(arrayLiteral pairs: (name: String, value: String)...) {
        self.init(pairs)
    }

    /// Adds `name: value` after the headers already here, unless the name is not a token, the value holds CR or
    /// LF, or the header would have the web server act in the gateway's place (``instructsWebServer(_:)``).
    public mutating func add(_ name: String, _ value: String) {
        guard Self.isToken(name), Self.canCarry(value), !Self.instructsWebServer(name), !Self.isTransportOwned(name)
        else { return }
        // Whatever a web server may skip before the path (Apache skips any white space, VT and FF too).
        if name.utf8.count == 8, name.lowercased() == "location",
            value.utf8.first(where: { $0 > 0x20 }) == UInt8(ascii: "/")
        {
            hasLocalLocation = true
        }
        bytes.reserveCapacity(bytes.count + name.utf8.count + value.utf8.count + 4)
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: value.utf8)
        bytes.append(UInt8(ascii: "\r"))
        bytes.append(UInt8(ascii: "\n"))
    }

    /// These headers followed by `more`.
    public static func + (headers: ResponseHeaders, more: ResponseHeaders) -> ResponseHeaders {
        var all = headers
        all.bytes += more.bytes
        all.hasLocalLocation = headers.hasLocalLocation || more.hasLocalLocation
        return all
    }

    /// These headers as content is sent with them: every header about caching (`Cache-Control` and its targeted
    /// kinds such as `CDN-Cache-Control`, `Surrogate-Control`, Akamai's `Edge-Control`, `Expires`, `Pragma`) replaced by
    /// `Cache-Control: private, no-store`, whoever set it, so that no shared cache (a CDN, a proxy; nginx passes
    /// them on with an X-Accel-Redirect) keeps one buyer's file for the next.
    package func forContent() -> ResponseHeaders {
        var kept = ResponseHeaders(
            pairs.filter { pair in
                let name = pair.name.lowercased()
                return !name.hasSuffix("cache-control")
                    && !["surrogate-control", "edge-control", "expires", "pragma"].contains(name)
            })
        kept.add("Cache-Control", "private, no-store")
        return kept
    }

    /// These headers without any called `name` (compared case-insensitively).
    package func removing(_ name: String) -> ResponseHeaders {
        ResponseHeaders(pairs.filter { $0.name.lowercased() != name.lowercased() })
    }

    /// Whether a header called `name` tells a web server to do something in the gateway's place, such as send a
    /// file or fetch another URL: nginx's `X-Accel-*` (`X-Accel-Redirect`), Apache's and lighttpd's `X-Sendfile*`
    /// (`X-Sendfile2`, `X-Sendfile-Temporary`), lighttpd's `X-LIGHTTPD-*` (`X-LIGHTTPD-send-file`), LiteSpeed's
    /// `X-LiteSpeed-*` (`X-LiteSpeed-Location`), H2O's and Perlbal's `X-Reproxy-*` (`X-Reproxy-URL`). Compared
    /// case-insensitively and with `_` as `-`, as web servers read them (nginx's `$upstream_http_x_accel_…` finds
    /// `X_Accel_…` as well; found by a forty-third reviewer steering s3-proxy's fetch with it).
    package static func instructsWebServer(_ name: String) -> Bool {
        guard name.utf8.first.map({ $0 | 0x20 == UInt8(ascii: "x") }) == true else { return false }
        let lowered = String(name.lowercased().map { $0 == "_" ? "-" : $0 })
        return ["x-accel-", "x-sendfile", "x-lighttpd-", "x-litespeed-", "x-reproxy-"].contains {
            lowered.hasPrefix($0)
        }
    }

    /// Whether the transport writes the header called `name` itself: `Status`, `Content-Length`, `X-Request-Id`.
    package static func isTransportOwned(_ name: String) -> Bool {
        switch name.utf8.count {
        case 6, 12, 14: ["status", "x-request-id", "content-length"].contains(name.lowercased())
        default: false
        }
    }

    /// Whether `name` is an HTTP token: one or more of the letters, digits and ``!#$%&'*+-.^_`|~``.
    package static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
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
