import Crypto
import Foundation
import Testing

@testable import ContentStorage

/// AWS's published Signature Version 4 test suite (aws-sig-v4-test-suite: credentials AKIDEXAMPLE, region
/// us-east-1, service "service", 2015-08-30T12:36:00Z), the cases that apply to signing S3 requests: paths and
/// queries encoded, headers canonicalized, a session token. Left out: the normalize-path cases (S3 never
/// normalizes a key's path). Plus the presigned GET of S3's own documentation.
@Suite struct SigV4SuiteTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let method: String
        /// The path and query as the suite's request line gives them (unencoded, or encoded where it encodes).
        let target: String
        let headers: [(String, String)]
        let signature: String
        var testDescription: String { name }
    }

    static let date = "20150830T123600Z"
    static let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    static let unreserved = "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

    static let cases: [Case] = [
        Case(
            name: "get-vanilla", method: "GET", target: "/", headers: [],
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        Case(
            name: "get-vanilla-empty-query-key", method: "GET", target: "/?Param1=value1", headers: [],
            signature: "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb"),
        Case(
            name: "get-vanilla-query-order-key-case", method: "GET", target: "/?Param2=value2&Param1=value1",
            headers: [], signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
        Case(
            name: "get-vanilla-query-order-key", method: "GET", target: "/?Param1=value2&Param1=Value1",
            headers: [], signature: "eedbc4e291e521cf13422ffca22be7d2eb8146eecf653089df300a15b2382bd1"),
        Case(
            name: "get-vanilla-query-order-value", method: "GET", target: "/?Param1=value2&Param1=value1",
            headers: [], signature: "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694"),
        Case(
            name: "get-vanilla-query-order-encoded", method: "GET",
            target: "/?Param-3=Value3&Param=Value2&%E1%88%B4=Value1", headers: [],
            signature: "371d3713e185cc334048618a97f809c9ffe339c62934c032af5a0e595648fcac"),
        Case(
            name: "get-vanilla-query-unreserved", method: "GET", target: "/?\(unreserved)=\(unreserved)",
            headers: [], signature: "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"),
        Case(
            name: "get-vanilla-utf8-query", method: "GET", target: "/?ሴ=bar", headers: [],
            signature: "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"),
        Case(
            name: "get-vanilla-with-session-token", method: "GET", target: "/",
            headers: [("X-Amz-Security-Token", "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267")],
            signature: "07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8"),
        Case(
            name: "get-unreserved", method: "GET", target: "/\(unreserved)", headers: [],
            signature: "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"),
        Case(
            name: "get-utf8", method: "GET", target: "/ሴ", headers: [],
            signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"),
        Case(
            name: "get-space", method: "GET", target: "/example space/", headers: [],
            signature: "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741"),
        Case(
            name: "get-special-character", method: "GET", target: "/example/$delete", headers: [],
            signature: "a853c9b21b528b19643d00910d35b83a10c366a10833ceefb45edd6c80e40f27"),
        Case(
            name: "get-header-key-duplicate", method: "GET", target: "/",
            headers: [("My-Header1", "value2"), ("My-Header1", "value2"), ("My-Header1", "value1")],
            signature: "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"),
        Case(
            name: "get-header-value-multiline", method: "GET", target: "/",
            headers: [("My-Header1", "value1\n  value2\n     value3")],
            signature: "cfd34249e4b1c8d6b91ef74165d41a32e5fab3306300901bb65a51a73575eefd"),
        Case(
            name: "get-header-value-order", method: "GET", target: "/",
            headers: [
                ("My-Header1", "value4"), ("My-Header1", "value1"), ("My-Header1", "value3"),
                ("My-Header1", "value2"),
            ],
            signature: "08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01"),
        Case(
            name: "get-header-value-trim", method: "GET", target: "/",
            headers: [("My-Header1", " value1"), ("My-Header2", " \"a   b   c\"")],
            signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
        Case(
            name: "post-vanilla", method: "POST", target: "/", headers: [],
            signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"),
        Case(
            name: "post-vanilla-query", method: "POST", target: "/?Param1=value1", headers: [],
            signature: "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11"),
        Case(
            name: "post-header-key-sort", method: "POST", target: "/", headers: [("My-Header1", "value1")],
            signature: "c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c"),
        Case(
            name: "post-header-value-case", method: "POST", target: "/", headers: [("My-Header1", "VALUE1")],
            signature: "cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d"),
    ]

    @Test(arguments: cases) func theSuiteSignatureIsOurs(_ vector: Case) {
        let (path, query) = Self.split(vector.target)
        let scope = SigV4.Scope(day: "20150830", region: "us-east-1", service: "service")
        let canonical = SigV4.canonicalRequest(
            method: vector.method, path: SigV4.encode(path, keepSlash: true), query: query,
            headers: [("Host", "example.amazonaws.com"), ("X-Amz-Date", Self.date)] + vector.headers,
            payloadHash: Self.emptyHash)
        let signature = SigV4.signature(
            SigV4.stringToSign(canonicalRequest: canonical.text, stamp: Self.date, scope: scope),
            key: SigV4.signingKey(secret: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", scope: scope))
        #expect(signature == vector.signature)
    }

    @Test func theCanonicalRequestOfAnEncodedQueryIsTheSuites() {
        let (path, query) = Self.split("/?Param-3=Value3&Param=Value2&%E1%88%B4=Value1")
        let canonical = SigV4.canonicalRequest(
            method: "GET", path: path, query: query,
            headers: [("Host", "example.amazonaws.com"), ("X-Amz-Date", Self.date)], payloadHash: Self.emptyHash)
        #expect(
            canonical.text
                == "GET\n/\n%E1%88%B4=Value1&Param=Value2&Param-3=Value3\nhost:example.amazonaws.com\n"
                + "x-amz-date:20150830T123600Z\n\nhost;x-amz-date\n\(Self.emptyHash)")
    }

    /// S3's documentation, "Authenticating Requests: Using Query Parameters": a presigned GET of
    /// examplebucket's test.txt for 86400 s from 2013-05-24T00:00:00Z.
    @Test func theDocumentedPresignedURLIsOurs() {
        let presigner = S3Presigner(
            bucket: S3Bucket(
                scheme: "https", host: "s3.amazonaws.com", port: nil, name: "examplebucket", region: "us-east-1",
                addressing: .virtual),
            credentials: S3Credentials(
                accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"))
        let url = presigner.url("GET", key: "test.txt", at: Date(timeIntervalSince1970: 1_369_353_600), expires: 86400)
        #expect(
            url
                == "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
                + "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    /// The request line's path, unencoded, and its query pairs, decoded (the canonical request encodes them).
    static func split(_ target: String) -> (String, [(name: String, value: String)]) {
        let parts = target.split(separator: "?", maxSplits: 1)
        var query: [(name: String, value: String)] = []
        for pair in parts.count > 1 ? parts[1].split(separator: "&") : [] {
            let kv = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            query.append((name: kv[0], value: kv.count > 1 ? kv[1] : ""))
        }
        return (String(parts[0]), query)
    }
}
