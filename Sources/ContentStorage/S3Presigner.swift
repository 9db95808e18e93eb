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
        let request = Request(self, key: key, at: date, contentDisposition, contentType)
        var headers: [(name: String, value: String)] = [
            ("X-Amz-Content-SHA256", SigV4.unsignedPayload), ("X-Amz-Date", request.stamp),
        ]
        if let token = credentials.sessionToken { headers.append(("X-Amz-Security-Token", token)) }
        let (signature, signedHeaders) = request.sign(method, headers: headers)
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyId)/\(request.scope.text), "
            + "SignedHeaders=\(signedHeaders), Signature=\(signature)"
        return (request.url, [("Authorization", authorization)] + headers)
    }

    /// A URL good for `method` (GET or HEAD) on the object `key` from `date` for `expires` seconds, asking S3 to
    /// answer with `contentDisposition` and `contentType` when given (`response-content-*`).
    package func url(
        _ method: String, key: String, at date: Date, expires: Int, contentDisposition: String? = nil,
        contentType: String? = nil
    ) -> String {
        var request = Request(self, key: key, at: date, contentDisposition, contentType)
        // botocore's order: the operation's own parameters, then the authentication's, the signature last.
        request.query += [
            ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
            ("X-Amz-Credential", "\(credentials.accessKeyId)/\(request.scope.text)"), ("X-Amz-Date", request.stamp),
            ("X-Amz-Expires", String(expires)), ("X-Amz-SignedHeaders", "host"),
        ]
        if let token = credentials.sessionToken { request.query.append(("X-Amz-Security-Token", token)) }
        request.query.append(("X-Amz-Signature", request.sign(method, headers: []).signature))
        return request.url
    }

    /// One request on an object: its path, its query (S3's `response-content-*` first), its time and scope.
    private struct Request {
        let presigner: S3Presigner
        let path: String
        let stamp: String
        let scope: SigV4.Scope
        var query: [(name: String, value: String)] = []

        init(_ presigner: S3Presigner, key: String, at date: Date, _ disposition: String?, _ type: String?) {
            self.presigner = presigner
            let (stamp, day) = SigV4.timestamp(date)
            (self.stamp, path) = (stamp, presigner.bucket.path(of: key))
            scope = SigV4.Scope(day: day, region: presigner.bucket.region, service: "s3")
            if let disposition { query.append(("response-content-disposition", disposition)) }
            if let type { query.append(("response-content-type", type)) }
        }

        /// The signature of the request for `method` with `headers` beside `host`, and the headers it signs.
        func sign(_ method: String, headers: [(name: String, value: String)]) -> (
            signature: String, signedHeaders: String
        ) {
            let canonical = SigV4.canonicalRequest(
                method: method, path: path, query: query, headers: [("host", presigner.bucket.hostHeader)] + headers,
                payloadHash: SigV4.unsignedPayload)
            let signature = SigV4.signature(
                SigV4.stringToSign(canonicalRequest: canonical.text, stamp: stamp, scope: scope),
                key: SigV4.signingKey(secret: presigner.credentials.secretAccessKey, scope: scope))
            return (signature, canonical.signedHeaders)
        }

        /// The URL: the bucket's origin, the path and the query as it stands.
        var url: String {
            let text = query.map { "\(SigV4.encode($0.name))=\(SigV4.encode($0.value))" }.joined(separator: "&")
            return "\(presigner.bucket.origin)\(path)\(text.isEmpty ? "" : "?" + text)"
        }
    }
}
