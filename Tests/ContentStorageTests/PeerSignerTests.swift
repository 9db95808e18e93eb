import Crypto
import Foundation
import Testing
import _CryptoExtras

@testable import ContentStorage

/// Our signed URLs against the AWS SDK's own, made by botocore (PyPI) for the same inputs and time: presigned S3
/// URLs from boto3's `generate_presigned_url`, CloudFront URLs from botocore's `CloudFrontSigner`. Equal byte for
/// byte, so that whatever S3 or CloudFront accepts from the SDK it accepts from us.
@Suite struct PeerSignerTests {
    struct S3Case {
        let at: Int
        let region: String
        let endpoint: String?
        let addressing: S3Bucket.Addressing
        let bucket: String
        let key: String
        let method: String
        let disposition: String?
        let type: String?
        let expires: Int
        let token: String?
    }

    static let s3Cases: [S3Case] = [
        S3Case(
            at: 1_700_000_000, region: "us-east-1", endpoint: nil, addressing: .virtual, bucket: "my-bucket",
            key: "a b/ü+c.pdf", method: "GET", disposition: #"attachment; filename="c.pdf""#, type: "application/pdf",
            expires: 300, token: nil),
        S3Case(
            at: 1_709_164_800, region: "eu-west-1", endpoint: nil, addressing: .path, bucket: "content.example.com",
            key: "issues/2026/#42 (final)!*'.zip", method: "GET", disposition: nil, type: nil, expires: 604_800,
            token: "FQoGZXIvYXdzEJr//////////wEaDOb+/token="),
        S3Case(
            at: 1_767_225_599, region: "eu-central-1", endpoint: "http://127.0.0.1:9000", addressing: .path,
            bucket: "levels", key: "9/level.pak", method: "HEAD", disposition: #"attachment; filename="level.pak""#,
            type: "application/octet-stream", expires: 1, token: nil),
        S3Case(
            at: 1_800_000_000, region: "auto", endpoint: "https://account.r2.cloudflarestorage.com",
            addressing: .virtual, bucket: "magazines", key: "x~y*z/日本語 ファイル.epub", method: "GET",
            disposition: "inline", type: "application/epub+zip; charset=utf-8", expires: 3600, token: nil),
        S3Case(
            at: 1_700_000_000, region: "ap-southeast-2", endpoint: "https://storage.example.net:8443",
            addressing: .virtual, bucket: "b-1-2", key: "k%2F already/encoded?&=", method: "GET", disposition: nil,
            type: "video/mp4", expires: 900, token: "token with spaces"),
    ]

    @Test func presignedURLsAreBotocores() async throws {
        let theirs = try await Self.peer(
            Self.s3Cases.map { c in
                let values: [String: Any?] = [
                    "kind": "s3", "at": c.at, "region": c.region, "endpoint": c.endpoint,
                    "access_key_id": "AKIDEXAMPLE", "secret_access_key": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                    "session_token": c.token, "addressing": c.addressing.rawValue, "bucket": c.bucket,
                    "key": c.key, "method": c.method, "content_disposition": c.disposition,
                    "content_type": c.type, "expires": c.expires,
                ]
                return values.compactMapValues { $0 }
            })
        let ours = Self.s3Cases.map { c in
            let endpoint = URL(string: c.endpoint ?? S3Bucket.awsEndpoint(region: c.region))!
            let presigner = S3Presigner(
                bucket: S3Bucket(
                    scheme: endpoint.scheme!, host: endpoint.host!, port: endpoint.port, name: c.bucket,
                    region: c.region, addressing: c.addressing),
                credentials: S3Credentials(
                    accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                    sessionToken: c.token))
            return presigner.url(
                c.method, key: c.key, at: Date(timeIntervalSince1970: TimeInterval(c.at)), expires: c.expires,
                contentDisposition: c.disposition, contentType: c.type)
        }
        #expect(ours == theirs)
    }

    /// The request nginx makes with s3-proxy, signed in its headers: botocore's `S3SigV4Auth` adds the same
    /// headers to the same request.
    @Test func headerSignedRequestsAreBotocores() async throws {
        let ours = Self.s3Cases.map { c in
            let endpoint = URL(string: c.endpoint ?? S3Bucket.awsEndpoint(region: c.region))!
            return S3Presigner(
                bucket: S3Bucket(
                    scheme: endpoint.scheme!, host: endpoint.host!, port: endpoint.port, name: c.bucket,
                    region: c.region, addressing: c.addressing),
                credentials: S3Credentials(
                    accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                    sessionToken: c.token)
            ).signedRequest(
                c.method, key: c.key, at: Date(timeIntervalSince1970: TimeInterval(c.at)),
                contentDisposition: c.disposition, contentType: c.type)
        }
        let theirs = try await Self.peerObjects(
            zip(ours, Self.s3Cases).map { request, c in
                let values: [String: Any?] = [
                    "kind": "s3-request", "at": c.at, "region": c.region, "url": request.url, "method": c.method,
                    "access_key_id": "AKIDEXAMPLE", "secret_access_key": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                    "session_token": c.token,
                ]
                return values.compactMapValues { $0 }
            })
        for (request, headers) in zip(ours, theirs) {
            #expect(Dictionary(uniqueKeysWithValues: request.headers.map { ($0.name, $0.value) }) == headers)
            #expect(!request.url.contains("X-Amz-"))
        }
        #expect(theirs.count == Self.s3Cases.count)
    }

    @Test func cloudFrontURLsAreBotocores() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let cases: [(base: String, key: String, expiresAt: Int)] = [
            ("https://d111111abcdef8.cloudfront.net/", "levels/9.pak", 1_700_000_300),
            ("https://cdn.example.com/content", "issues/2026/#42 (final) ü.pdf", 1_767_225_600),
        ]
        let signers = try cases.map {
            try CloudFrontSigner(base: $0.base, keyPairId: "K2JCJMDEHXQW5F", pem: key.pemRepresentation)
        }
        let ours = try zip(signers, cases).map { signer, c in
            try signer.url(key: c.key, expiresAt: Date(timeIntervalSince1970: TimeInterval(c.expiresAt)))
        }
        // The peer signs the URL we built without its signature: the resource CloudFront is asked for.
        let theirs = try await Self.peer(
            zip(ours, cases).map { url, c in
                [
                    "kind": "cloudfront", "url": String(url[..<url.range(of: "?Expires=")!.lowerBound]),
                    "key_pair_id": "K2JCJMDEHXQW5F", "private_key_pem": key.pemRepresentation,
                    "expires_at": c.expiresAt,
                ]
            })
        #expect(ours == theirs)
        #expect(
            ours[1].hasPrefix(
                "https://cdn.example.com/content/issues/2026/%2342%20%28final%29%20%C3%BC.pdf?Expires=1767225600&Signature="
            ))
    }

    /// What the peer (Tests/Support/StorageStandin/aws_signers.py) makes for `cases`.
    static func peer(_ cases: [[String: Any]]) async throws -> [String] {
        try await peerAnswers(cases).map { $0 as? String ?? "" }
    }

    /// The header sets the peer adds for `cases`.
    static func peerObjects(_ cases: [[String: Any]]) async throws -> [[String: String]] {
        try await peerAnswers(cases).map { $0 as? [String: String] ?? [:] }
    }

    static func peerAnswers(_ cases: [[String: Any]]) async throws -> [Any] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Support/StorageStandin/aws_signers.py").standardizedFileURL.path
        let input = try JSONSerialization.data(withJSONObject: cases)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script]
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        (process.standardInput, process.standardOutput, process.standardError) = (stdin, stdout, stderr)
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let printed = stdout.fileHandleForReading.readDataToEndOfFile()
        let complained = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let urls = try JSONSerialization.jsonObject(with: printed) as? [Any]
        else {
            throw PeerFailed(description: "aws_signers.py failed: " + String(decoding: complained, as: UTF8.self))
        }
        return urls
    }

    struct PeerFailed: Error, CustomStringConvertible {
        let description: String
    }
}
