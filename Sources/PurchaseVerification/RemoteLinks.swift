import ContentStorage
import Foundation
import GatewayCore

/// The signed URLs of the remote delivery modes, minted per request and good for `content.link_expires_s`: a
/// link is not a token, and its short life is the only way to take it back (a CDN cannot be told to forget one).
struct RemoteLinks: Sendable {
    enum Signer {
        case s3
        case cloudFront
    }

    private let presigner: S3Presigner?
    private let cloudFront: CloudFrontSigner?
    /// Seconds a link stays good.
    private let lifetime: Int
    /// nginx's internal location that fetches the link (`s3-proxy`); nil when the client is redirected to it.
    let proxyLocation: String?

    /// Whether a link serves only the method it was made for (S3 signs it; CloudFront's canned policy does not).
    var bindsMethod: Bool { presigner != nil }

    /// Reads `link_expires_s` and the signer's section (`s3`, `cloudfront`) of the content section.
    init(section: ConfigReader, signer: Signer, proxyLocation: String?) {
        // SigV4 caps a presigned URL at 7 days.
        lifetime = section.int("link_expires_s", default: 300, in: 1...604_800)
        switch signer {
        case .s3:
            presigner = StorageSettings.presigner(section.scoped("s3"))
            cloudFront = nil
        case .cloudFront:
            cloudFront = StorageSettings.cloudFront(section.scoped("cloudfront"))
            presigner = nil
        }
        self.proxyLocation = proxyLocation
    }

    /// The URL of `key` for `method` (GET or HEAD), from now; S3 answers with `contentDisposition` and
    /// `contentType` (a CloudFront link serves the object's own).
    func url(_ method: String, key: String, contentDisposition: String, contentType: String) throws -> String {
        let now = Date()
        if let presigner {
            return presigner.url(
                method, key: key, at: now, expires: lifetime, contentDisposition: contentDisposition,
                contentType: contentType)
        }
        guard let cloudFront else { throw GatewayError.internalError }
        return try cloudFront.url(key: key, expiresAt: now.addingTimeInterval(TimeInterval(lifetime)))
    }
}
