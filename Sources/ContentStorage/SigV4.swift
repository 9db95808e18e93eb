import Crypto
import Foundation

/// AWS Signature Version 4, the parts every signed request shares: the canonical request, the string to sign
/// and the derived signing key (docs.aws.amazon.com, "Create a signed AWS API request"). Checked against AWS's
/// published test suite and, for presigned S3 URLs, byte for byte against botocore.
package enum SigV4 {
    /// The scope of a signature: the day, the region and the service it is good for.
    package struct Scope: Sendable, Equatable {
        package let day: String
        package let region: String
        package let service: String

        package init(day: String, region: String, service: String) {
            self.day = day
            self.region = region
            self.service = service
        }

        /// `20150830/us-east-1/service/aws4_request`.
        package var text: String { "\(day)/\(region)/\(service)/aws4_request" }
    }

    /// The hash of an empty payload, and the payload a presigned S3 URL declares (the body is not signed).
    package static let unsignedPayload = "UNSIGNED-PAYLOAD"

    /// `20150830T123600Z` and `20150830` for `date`, in UTC.
    package static func timestamp(_ date: Date) -> (stamp: String, day: String) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let day = String(
            format: "%04d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
        let stamp = day + String(format: "T%02d%02d%02dZ", Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        return (stamp, day)
    }

    /// `text` percent-encoded as SigV4 wants: every byte but the unreserved `A-Z a-z 0-9 - _ . ~` as `%XX`
    /// (upper-case hex), `/` kept when `keepSlash` (a path).
    package static func encode(_ text: String, keepSlash: Bool = false) -> String {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: "/") where keepSlash:
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The canonical query string: each name and value encoded, sorted by name then value.
    package static func canonicalQuery(_ parameters: [(name: String, value: String)]) -> String {
        let encoded: [(name: String, value: String)] = parameters.map { (encode($0.name), encode($0.value)) }
        let sorted = encoded.sorted { left, right in
            left.name == right.name ? left.value < right.value : left.name < right.name
        }
        return sorted.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }

    /// The canonical request: `headers` are lower-case names with trimmed values, sorted by name, and all
    /// signed; `path` is the canonical URI, already encoded.
    package static func canonicalRequest(
        method: String, path: String, query: [(name: String, value: String)], headers: [(name: String, value: String)],
        payloadHash: String
    ) -> (text: String, signedHeaders: String) {
        var merged: [String: [String]] = [:]
        for (name, value) in headers {
            let trimmed = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).joined(separator: " ")
            merged[name.lowercased(), default: []].append(trimmed)
        }
        let names = merged.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(merged[$0]!.joined(separator: ","))\n" }.joined()
        let signed = names.joined(separator: ";")
        let text = [method, path, canonicalQuery(query), canonicalHeaders, signed, payloadHash]
            .joined(separator: "\n")
        return (text, signed)
    }

    /// The string to sign for `canonicalRequest`, made at `stamp` within `scope`.
    package static func stringToSign(canonicalRequest: String, stamp: String, scope: Scope) -> String {
        "AWS4-HMAC-SHA256\n\(stamp)\n\(scope.text)\n" + hex(SHA256.hash(data: Data(canonicalRequest.utf8)))
    }

    /// The signing key for `scope`, derived from the secret access key.
    package static func signingKey(secret: String, scope: Scope) -> SymmetricKey {
        var key = SymmetricKey(data: Data(("AWS4" + secret).utf8))
        for part in [scope.day, scope.region, scope.service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    /// The hex signature of `stringToSign` with `key`.
    package static func signature(_ stringToSign: String, key: SymmetricKey) -> String {
        hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
    }

    /// Lower-case hex of `bytes`.
    package static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }
}
