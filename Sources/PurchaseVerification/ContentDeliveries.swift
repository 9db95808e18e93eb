import ContentStorage
import CoreMetrics
import Foundation
import GatewayHandlerAPI
import Logging
import ProductCatalog

/// How content leaves once a grant is confirmed (the `content` section): nginx sends the file named by an
/// `X-Accel-Redirect` to its internal location (`delivery: x-accel`), or the gateway streams it with Range
/// (`stream`); content in S3-compatible storage goes out as a redirect to a presigned URL (`s3-presigned`),
/// through nginx fetching that URL itself (`s3-proxy`), or as a redirect to a CloudFront signed URL
/// (`cloudfront`). Only the catalog maps a product id to a file or object; a product id never becomes a path.
package struct ContentDeliveries: Sendable {
    private enum Mode: String, CaseIterable {
        case xAccel = "x-accel"
        case stream
        case s3Presigned = "s3-presigned"
        case s3Proxy = "s3-proxy"
        case cloudFront = "cloudfront"

        /// Whether it delivers objects from the storage rather than files under `content.root`.
        var isRemote: Bool { ![.xAccel, .stream].contains(self) }
    }

    private let mode: Mode
    private let contentRoot: ContentRoot
    /// Makes the signed URL of an object (the remote modes).
    private let links: RemoteLinks?
    /// Each content product's file with its fixed answer headers and X-Accel-Redirect URI, worked out once.
    private let heads: [String: Head]
    private let granted: Counter

    private struct Head: Sendable {
        let content: Product.Content
        let headers: ResponseHeaders
        let disposition: String
        let accelRedirect: String
    }

    /// Reads `content.delivery` and what it needs (`content.x_accel_location`; `content.s3` or
    /// `content.cloudfront`, `content.link_expires_s`, `content.proxy_location`) from `section`, problems at their
    /// key paths.
    package init(section: ConfigReader, catalog: Catalog, metricsFactory: any MetricsFactory) {
        let text = section.string("delivery", default: Mode.xAccel.rawValue)
        mode = Mode(rawValue: text) ?? .xAccel
        if Mode(rawValue: text) == nil {
            section.report(
                "delivery", "must be \(Mode.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\"")
        }
        let location = Self.internalLocation(section, "x_accel_location", default: "/_storegate_content/")
        links =
            switch mode {
            case .xAccel, .stream: nil
            case .s3Presigned: RemoteLinks(section: section, signer: .s3, proxyLocation: nil)
            case .cloudFront: RemoteLinks(section: section, signer: .cloudFront, proxyLocation: nil)
            case .s3Proxy:
                RemoteLinks(
                    section: section, signer: .s3,
                    proxyLocation: Self.internalLocation(section, "proxy_location", default: "/_storegate_remote/"))
            }
        contentRoot = ContentRoot(path: catalog.contentRoot)
        granted = Counter(
            label: "storegate_downloads_granted_total", dimensions: [("delivery", mode.rawValue)],
            factory: metricsFactory)
        var heads: [String: Head] = [:]
        for product in catalog.products {
            guard let content = product.content else { continue }
            let isObject = content.relativePath == nil
            if isObject != mode.isRemote {
                section.report(
                    "delivery",
                    isObject
                        ? "\(mode.rawValue) delivers files under content.root, but product \(product.id) names an object in the storage (object:): use s3-presigned, s3-proxy or cloudfront"
                        : "\(mode.rawValue) delivers objects from the storage, but product \(product.id) names a local file (content:): give it an object: key instead"
                )
            }
            let name = String(content.fileName.map { $0 == "\"" || $0 == "\\" ? "_" : $0 })
            let disposition = "attachment; filename=\"\(name)\""
            heads[product.id] = Head(
                content: content,
                headers: [("Content-Type", content.contentType), ("Content-Disposition", disposition)],
                disposition: disposition,
                accelRedirect: content.relativePath.map { location + Self.uriPath($0) } ?? "")
        }
        self.heads = heads
    }

    /// The answer that hands over `grant`'s product for `request`, after `record` recorded the grant (given the
    /// content's SHA-256): without a record there is no download. A HEAD or a range outside the file (416)
    /// delivers nothing when the gateway streams, so it records nothing.
    func deliver(
        _ grant: ContentGrant, for request: GatewayRequest, context: RequestContext,
        record: (String) throws(GatewayError) -> Void
    ) throws -> GatewayResponse {
        guard let head = heads[grant.productId] else { throw GatewayError.noContent }
        var response: GatewayResponse
        switch mode {
        case .xAccel:
            try record(head.content.sha256)
            granted.increment()
            response = GatewayResponse(status: 200, headers: head.headers)
            response.delivery = ContentDelivery(.webServer(uri: head.accelRedirect), exchange: grant.exchange)
        case .stream:
            response = try stream(head, grant: grant, request: request, context: context, record: record)
        case .s3Presigned, .s3Proxy, .cloudFront:
            response = try link(head, grant: grant, request: request, record: record)
        }
        response.logMetadata = ["environment": "\(grant.environment)", "product": "\(grant.productId)"]
        return response
    }

    /// A link to the object, minted for this request: a 302 to it, or nginx told to fetch it (`s3-proxy`). The
    /// grant is recorded before the link is made, but for a HEAD with a link good for HEAD alone (S3's), which
    /// delivers nothing; a CloudFront link serves any method, so a HEAD's is recorded too.
    private func link(
        _ head: Head, grant: ContentGrant, request: GatewayRequest, record: (String) throws(GatewayError) -> Void
    ) throws -> GatewayResponse {
        guard let links, case .object(let key) = head.content.source else { throw GatewayError.internalError }
        let method = request.method == .head ? "HEAD" : "GET"
        if method == "GET" || !links.bindsMethod {
            try record(head.content.sha256)
            granted.increment()
        }
        if let proxyLocation = links.proxyLocation {
            let fetch = try links.fetch(
                method, key: key, contentDisposition: head.disposition, contentType: head.content.contentType)
            var response = GatewayResponse(status: 200, headers: head.headers)
            response.delivery = ContentDelivery(
                .webServerFetch(uri: proxyLocation, fetch: fetch), exchange: grant.exchange)
            return response
        }
        let url = try links.url(
            method, key: key, contentDisposition: head.disposition, contentType: head.content.contentType,
            until: grant.expiresAt)
        // 302, not 307: the link is signed for GET, and a 307 would have the client repeat a POST download (its
        // receipt in the body) at the storage, which refuses it and must never see the receipt. The link is the
        // answer's content (the front writes it as Location): an answer a handler keeps for another request is
        // refused, as any content is, and it leaves with content's Cache-Control.
        var response = GatewayResponse(status: 302, headers: [("Referrer-Policy", "no-referrer")])
        response.delivery = ContentDelivery(.redirect(url: url), exchange: grant.exchange)
        return response
    }

    private func stream(
        _ head: Head, grant: ContentGrant, request: GatewayRequest, context: RequestContext,
        record: (String) throws(GatewayError) -> Void
    ) throws -> GatewayResponse {
        let content = head.content
        let relative = content.relativePath ?? ""
        guard case .success(let path) = contentRoot.file(relative),
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        else {
            context.logger.error("a catalog file is missing", metadata: ["path": "\(relative)"])
            throw GatewayError.internalError
        }
        var headers = head.headers + [("ETag", "\"\(content.sha256)\""), ("Accept-Ranges", "bytes")]
        let slice: FileSlice
        let status: Int
        switch ByteRange(header: request.header("Range"), size: size) {
        case .unsatisfiable:
            headers.add("Content-Range", "bytes */\(size)")
            return GatewayResponse(status: 416, headers: headers)
        case .whole:
            (slice, status) = (FileSlice(path: path, offset: 0, length: size), 200)
        case .part(let offset, let length):
            headers.add("Content-Range", "bytes \(offset)-\(offset + length - 1)/\(size)")
            (slice, status) = (FileSlice(path: path, offset: offset, length: length), 206)
        }
        if request.method != .head {
            try record(content.sha256)
            granted.increment()
        }
        var response = GatewayResponse(status: status, headers: headers)
        response.delivery = ContentDelivery(.file(slice), exchange: grant.exchange)
        return response
    }

    /// The nginx `internal` location path at `key`: it must start and end with `/`.
    private static func internalLocation(_ section: ConfigReader, _ key: String, default value: String) -> String {
        let location = section.string(key, default: value)
        if !location.hasPrefix("/") || !location.hasSuffix("/") {
            section.report(key, "must be an nginx location path starting and ending with /")
        }
        return location
    }

    /// `relative` percent-encoded segment by segment for the X-Accel-Redirect URI.
    static func uriPath(_ relative: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        return relative.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
            .joined(separator: "/")
    }
}
