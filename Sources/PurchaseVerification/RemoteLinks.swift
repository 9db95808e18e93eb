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

    /// The URL of `key` for `method` (GET or HEAD), good from now for `link_expires_s`, or until `until` when that
    /// is sooner (a subscription's period ends): S3 answers with `contentDisposition` and `contentType` (a
    /// CloudFront link serves the object's own).
    func url(
        _ method: String, key: String, contentDisposition: String, contentType: String, until: Date? = nil
    ) throws -> String {
        let now = Date()
        let left = until.map { max(1, Int($0.timeIntervalSince(now).rounded(.down))) } ?? lifetime
        if let presigner {
            return presigner.url(
                method, key: key, at: now, expires: min(lifetime, left), contentDisposition: contentDisposition,
                contentType: contentType)
        }
        guard let cloudFront else { throw GatewayError.internalError }
        return try cloudFront.url(key: key, expiresAt: now.addingTimeInterval(TimeInterval(min(lifetime, left))))
    }

    /// The request nginx makes for `key` (s3-proxy), signed in its headers so that its URL, which nginx logs when
    /// the fetch fails, opens nothing.
    func fetch(_ method: String, key: String, contentDisposition: String, contentType: String) throws
        -> WebServerFetch
    {
        guard let presigner else { throw GatewayError.internalError }
        let signed = presigner.signedRequest(
            method, key: key, at: Date(), contentDisposition: contentDisposition, contentType: contentType)
        return WebServerFetch(url: signed.url, headers: signed.headers.map { WebServerFetch.Header($0.name, $0.value) })
    }
}
