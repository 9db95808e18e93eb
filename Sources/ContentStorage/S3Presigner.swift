import Foundation

/// Presigned S3 URLs (SigV4 query authentication) for a bucket's objects: what the AWS SDKs'
/// `generate_presigned_url` makes for the same inputs and time, byte for byte (botocore is the tests' oracle).
/// Any S3-compatible endpoint, path-style or virtual-hosted.
package struct S3Presigner: Sendable, CustomReflectable {
    private let bucket: S3Bucket
    private let credentials: S3Credentials

    /// Nothing: it holds the secret access key.
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    package init(bucket: S3Bucket, credentials: S3Credentials) {
        self.bucket = bucket
        self.credentials = credentials
    }

    /// A request for `method` (GET or HEAD) on the object `key`, made at `date`, signed in its headers
    /// (`Authorization`, `X-Amz-Date`, `X-Amz-Content-SHA256`, and `X-Amz-Security-Token` for temporary
    /// credentials) rather than in its URL, which then carries nothing that opens the object. What botocore's
    /// `S3SigV4Auth` signs for the same request.
    package func signedRequest(
        _ method: String, key: String, at date: Date, contentDisposition: String? = nil, contentType: String? = nil
    ) -> (url: String, headers: [(name: String, value: String)]) {
        let (stamp, day) = SigV4.timestamp(date)
        let scope = SigV4.Scope(day: day, region: bucket.region, service: "s3")
        let path = bucket.path(of: key)
        var query: [(name: String, value: String)] = []
        if let contentDisposition { query.append(("response-content-disposition", contentDisposition)) }
        if let contentType { query.append(("response-content-type", contentType)) }
        var headers: [(name: String, value: String)] = [
            ("X-Amz-Content-SHA256", SigV4.unsignedPayload), ("X-Amz-Date", stamp),
        ]
        if let token = credentials.sessionToken { headers.append(("X-Amz-Security-Token", token)) }
        let canonical = SigV4.canonicalRequest(
            method: method, path: path, query: query, headers: [("host", bucket.hostHeader)] + headers,
            payloadHash: SigV4.unsignedPayload)
        let signature = SigV4.signature(
            SigV4.stringToSign(canonicalRequest: canonical.text, stamp: stamp, scope: scope),
            key: SigV4.signingKey(secret: credentials.secretAccessKey, scope: scope))
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyId)/\(scope.text), "
            + "SignedHeaders=\(canonical.signedHeaders), Signature=\(signature)"
        let text = query.map { "\(SigV4.encode($0.name))=\(SigV4.encode($0.value))" }.joined(separator: "&")
        return (
            "\(bucket.origin)\(path)\(text.isEmpty ? "" : "?" + text)", [("Authorization", authorization)] + headers
        )
    }

    /// A URL good for `method` (GET or HEAD) on the object `key` from `date` for `expires` seconds, asking S3 to
    /// answer with `contentDisposition` and `contentType` when given (`response-content-*`).
    package func url(
        _ method: String, key: String, at date: Date, expires: Int, contentDisposition: String? = nil,
        contentType: String? = nil
    ) -> String {
        let (stamp, day) = SigV4.timestamp(date)
        let scope = SigV4.Scope(day: day, region: bucket.region, service: "s3")
        let path = bucket.path(of: key)
        // botocore's order: the operation's own parameters, then the authentication's, the signature last.
        var query: [(name: String, value: String)] = []
        if let contentDisposition { query.append(("response-content-disposition", contentDisposition)) }
        if let contentType { query.append(("response-content-type", contentType)) }
        query += [
            ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"), ("X-Amz-Credential", "\(credentials.accessKeyId)/\(scope.text)"),
            ("X-Amz-Date", stamp), ("X-Amz-Expires", String(expires)), ("X-Amz-SignedHeaders", "host"),
        ]
        if let token = credentials.sessionToken { query.append(("X-Amz-Security-Token", token)) }
        let canonical = SigV4.canonicalRequest(
            method: method, path: path, query: query, headers: [("host", bucket.hostHeader)],
            payloadHash: SigV4.unsignedPayload)
        let signature = SigV4.signature(
            SigV4.stringToSign(canonicalRequest: canonical.text, stamp: stamp, scope: scope),
            key: SigV4.signingKey(secret: credentials.secretAccessKey, scope: scope))
        query.append(("X-Amz-Signature", signature))
        let text = query.map { "\(SigV4.encode($0.name))=\(SigV4.encode($0.value))" }.joined(separator: "&")
        return "\(bucket.origin)\(path)?\(text)"
    }
}
