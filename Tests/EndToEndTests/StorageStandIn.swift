import Crypto
import Foundation
import _CryptoExtras

/// S3 and CloudFront for the tests (Tests/Support/StorageStandin/storage_standin.py): moto's S3 holding the
/// sample issue, behind the checks real S3 makes on presigned URLs (signature, expiry), and a CloudFront
/// distribution over the bucket that checks canned-policy signed URLs with the key pair's public key.
final class StorageStandIn: @unchecked Sendable {
    static let bucket = "storegate-content"
    static let region = "eu-west-1"
    static let accessKeyId = "AKIASTOREGATETEST01"
    static let secretAccessKey = "stand-in/secret+access+key/0123456789abcdef"
    static let keyPairId = "K2STOREGATETEST"
    /// The sample issue's key: a space and a plus, which path encodings get wrong.
    static let issueKey = "issues/issue 1+final.bin"

    let s3Port: Int
    let cdnPort: Int
    let folder: URL
    private let process: ManagedProcess
    let privateKeyPEM: String

    /// A stand-in holding the sample issue and `objects` (by key) besides.
    init(objects: [String: [UInt8]] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storegate-storage-\(UUID().uuidString.prefix(8))")
        let seed = folder.appendingPathComponent("seed/issues")
        try FileManager.default.createDirectory(at: seed, withIntermediateDirectories: true)
        try Data(SampleContent.issueBytes).write(to: folder.appendingPathComponent("seed/\(Self.issueKey)"))
        for (key, bytes) in objects {
            let file = folder.appendingPathComponent("seed/\(key)")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        privateKeyPEM = key.pemRepresentation
        let publicKey = folder.appendingPathComponent("cdn-public.pem")
        try key.publicKey.pemRepresentation.write(to: publicKey, atomically: true, encoding: .utf8)
        let script = Binaries.checkout.appendingPathComponent("Tests/Support/StorageStandin/storage_standin.py")
        let started = try ManagedProcess(
            "/usr/bin/env",
            [
                "python3", script.path, "--access-key-id", Self.accessKeyId, "--secret-access-key",
                Self.secretAccessKey, "--region", Self.region, "--bucket", Self.bucket, "--seed",
                folder.appendingPathComponent("seed").path, "--cdn-public-key", publicKey.path, "--cdn-key-pair-id",
                Self.keyPairId,
            ], logFile: folder.appendingPathComponent("standin.log"))
        var ports: [Int] = []
        _ = ManagedProcess.poll(for: .seconds(30)) {
            let line = started.log.split(separator: "\n").first { $0.hasPrefix("listening ") } ?? ""
            ports = line.split(separator: " ").dropFirst().compactMap { Int($0) }
            return ports.count == 2
        }
        guard ports.count == 2 else {
            started.stop()
            throw HTTPClient.Failure(description: "the storage stand-in did not start:\n\(started.log)")
        }
        (s3Port, cdnPort, process) = (ports[0], ports[1], started)
    }

    /// The catalog of the sample, its issue an object of the bucket with its size and SHA-256.
    static var catalog: String {
        SampleContent.catalog.replacingOccurrences(
            of: "content: \(SampleContent.issuePath)",
            with: "object: \"\(issueKey)\"\n    size: \(SampleContent.issueBytes.count)\n"
                + "    sha256: \(SampleContent.issueSHA256)")
    }

    /// A gateway's environment for `delivery`: the storage's settings and secrets as an operator passes them.
    func environment(_ delivery: String, linkSeconds: Int = 300) -> [String: String] {
        var environment = ["STOREGATE_CONTENT_LINK_EXPIRES_S": String(linkSeconds)]
        if delivery == "cloudfront" {
            environment["STOREGATE_CONTENT_CLOUDFRONT_URL"] = "http://127.0.0.1:\(cdnPort)/"
            environment["STOREGATE_CONTENT_CLOUDFRONT_KEY_PAIR_ID"] = Self.keyPairId
            environment["STOREGATE_CONTENT_CLOUDFRONT_PRIVATE_KEY"] = privateKeyPEM
        } else {
            environment.merge(s3Environment) { _, new in new }
        }
        return environment
    }

    /// `content.s3` in the environment.
    private var s3Environment: [String: String] {
        [
            "STOREGATE_CONTENT_S3_BUCKET": Self.bucket, "STOREGATE_CONTENT_S3_REGION": Self.region,
            "STOREGATE_CONTENT_S3_ENDPOINT": "http://127.0.0.1:\(s3Port)", "STOREGATE_CONTENT_S3_ADDRESSING": "path",
            "STOREGATE_CONTENT_S3_ACCESS_KEY_ID": Self.accessKeyId,
            "STOREGATE_CONTENT_S3_SECRET_ACCESS_KEY": Self.secretAccessKey,
        ]
    }

    /// GET (or HEAD) of an absolute URL the gateway handed out, on one of the stand-in's ports, as a client
    /// following the redirect sends it: the path and query as they are, the Host with its port.
    func fetch(_ url: String, method: String = "GET", headers: [(String, String)] = []) throws -> HTTPResponse {
        guard let parsed = URL(string: url), let port = parsed.port, [s3Port, cdnPort].contains(port),
            let start = url.range(of: "127.0.0.1:\(port)")?.upperBound
        else { throw HTTPClient.Failure(description: "not a URL of the storage stand-in: \(url)") }
        return try HTTPClient.request(
            port: port, method: method, path: String(url[start...]), headers: [("Host", "127.0.0.1:\(port)")] + headers)
    }

    /// Moves the storage's and the CDN's clock forward: links minted before expire without waiting.
    func advanceClock(seconds: Int) throws {
        let answer = try HTTPClient.request(port: s3Port, method: "POST", path: "/_standin/clock?advance=\(seconds)")
        guard answer.status == 204 else { throw HTTPClient.Failure(description: "clock: \(answer.status)") }
    }

    /// Every request the storage and the CDN saw, oldest first.
    func requests() throws -> [[String: Any]] {
        let answer = try HTTPClient.request(port: s3Port, path: "/_standin/requests")
        return try JSONSerialization.jsonObject(with: Data(answer.body)) as? [[String: Any]] ?? []
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
