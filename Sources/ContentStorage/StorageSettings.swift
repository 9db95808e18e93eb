import Foundation
import GatewayCore

/// Reads the content section's storage settings: `content.s3` (a bucket and its access key) and
/// `content.cloudfront` (a distribution and its key pair), problems at their key paths. Secrets may come from
/// the environment (`STOREGATE_CONTENT_S3_SECRET_ACCESS_KEY`) and are never in a problem's words.
package enum StorageSettings {
    /// The bucket `content.s3` names, and a presigner for it; nil (problems reported) when a setting is missing
    /// or wrong.
    package static func presigner(_ s3: ConfigReader) -> S3Presigner? {
        let name = s3.requiredString("bucket")
        let region = s3.requiredString(
            "region", why: "is required: the bucket's region (us-east-1, or auto where the storage takes any)")
        let addressing: S3Bucket.Addressing = s3.choice("addressing", default: .virtual)
        let endpoint = s3.serviceURL("endpoint", default: S3Bucket.awsEndpoint(region: region ?? "us-east-1"))
        let keyId = s3.requiredString(
            "access_key_id", why: "is required (or STOREGATE_CONTENT_S3_ACCESS_KEY_ID in the environment)")
        let secret = s3.requiredString(
            "secret_access_key", why: "is required (or STOREGATE_CONTENT_S3_SECRET_ACCESS_KEY in the environment)")
        let token = s3.string("session_token").flatMap { $0.isEmpty ? nil : $0 }
        guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(), let host = url.host,
            url.path.isEmpty || url.path == "/", url.query == nil
        else {
            s3.report("endpoint", "must be the storage's URL with no path, such as https://s3.eu-west-1.amazonaws.com")
            return nil
        }
        if let name, addressing == .virtual, !S3Bucket.isHostName(name) {
            s3.report(
                "bucket",
                "\"\(name)\" cannot be named in a host name (virtual-hosted addressing): set addressing: path")
        }
        guard let name, let region, let keyId, let secret, addressing == .path || S3Bucket.isHostName(name) else {
            return nil
        }
        let bucket = S3Bucket(
            scheme: scheme, host: host.lowercased(), port: url.port, name: name, region: region, addressing: addressing)
        return S3Presigner(
            bucket: bucket, credentials: S3Credentials(accessKeyId: keyId, secretAccessKey: secret, sessionToken: token)
        )
    }

    /// The distribution `content.cloudfront` names, and a signer with its key pair; nil (problems reported) when
    /// a setting is missing or wrong.
    package static func cloudFront(_ section: ConfigReader) -> CloudFrontSigner? {
        let base = section.serviceURL("url", default: "https://d111111abcdef8.cloudfront.net/")
        if section.string("url") == nil {
            section.report("url", "is required: the distribution's URL the objects' keys follow")
        }
        let keyPairId = section.requiredString(
            "key_pair_id", why: "is required: the id CloudFront gives the public key (K2JCJMDEHXQW5F)")
        let keyFile = section.path("private_key_file")
        let pem = section.string("private_key")
        guard let keyPairId, section.string("url") != nil else { return nil }
        let text: String
        if let pem {
            text = pem
        } else if let keyFile {
            guard let read = try? String(contentsOfFile: keyFile, encoding: .utf8) else {
                section.report("private_key_file", "\(keyFile) could not be read")
                return nil
            }
            text = read
        } else {
            section.report(
                "private_key_file",
                "is required: the key pair's private key in PEM (or private_key, or STOREGATE_CONTENT_CLOUDFRONT_PRIVATE_KEY)"
            )
            return nil
        }
        do {
            return try CloudFrontSigner(base: base, keyPairId: keyPairId, pem: text)
        } catch {
            section.report(pem != nil ? "private_key" : "private_key_file", error.message)
            return nil
        }
    }
}
