/// Where a bucket's objects are addressed: the endpoint, the bucket's name, its region and whether the bucket
/// is named in the host (virtual-hosted, AWS's default) or in the path (path-style, usual for S3-compatible
/// servers).
package struct S3Bucket: Sendable, Equatable {
    package enum Addressing: String, Sendable, CaseIterable {
        case virtual
        case path
    }

    package let scheme: String
    /// The endpoint's host, without the bucket.
    package let host: String
    /// The port when the endpoint names one.
    package let port: Int?
    package let name: String
    package let region: String
    package let addressing: Addressing

    package init(scheme: String, host: String, port: Int?, name: String, region: String, addressing: Addressing) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.name = name
        self.region = region
        self.addressing = addressing
    }

    /// The host the requests go to, with the port when it is not the scheme's: the `Host` header S3 checks.
    package var hostHeader: String {
        let named = addressing == .virtual ? "\(name).\(host)" : host
        guard let port, port != (scheme == "https" ? 443 : 80) else { return named }
        return "\(named):\(port)"
    }

    /// `https://host[:port]`.
    package var origin: String { "\(scheme)://\(hostHeader)" }

    /// The encoded path of the object `key` (its canonical URI: S3 encodes it once).
    package func path(of key: String) -> String {
        (addressing == .path ? "/\(SigV4.encode(name))/" : "/") + SigV4.encode(key, keepSlash: true)
    }

    /// AWS's own endpoint for `region`, as the SDKs pick it: the global one for us-east-1.
    package static func awsEndpoint(region: String) -> String {
        region == "us-east-1" ? "https://s3.amazonaws.com" : "https://s3.\(region).amazonaws.com"
    }

    /// Whether `name` can name a host (virtual-hosted addressing): 3 to 63 lower-case letters, digits and
    /// hyphens, starting and ending with a letter or digit. A dot would break TLS on the wildcard certificate.
    package static func isHostName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { return false }
        let alphanumeric: (UInt8) -> Bool = {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
        return alphanumeric(bytes[0]) && alphanumeric(bytes[bytes.count - 1])
            && bytes.allSatisfy { alphanumeric($0) || $0 == UInt8(ascii: "-") }
    }
}
