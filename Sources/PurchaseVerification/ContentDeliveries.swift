import CoreMetrics
import Foundation
import GatewayHandlerAPI
import Logging
import ProductCatalog

/// How content leaves once a grant is confirmed (the `content` section): nginx sends the file named by an
/// `X-Accel-Redirect` to its internal location (`delivery: x-accel`), or the gateway streams it with Range
/// (`stream`). Only the catalog maps a product id to a file; a product id never becomes a path.
package struct ContentDeliveries: Sendable {
    private enum Mode: String {
        case xAccel = "x-accel"
        case stream
    }

    private let mode: Mode
    private let contentRoot: ContentRoot
    /// Each content product's file with its fixed answer headers and X-Accel-Redirect URI, worked out once.
    private let heads: [String: Head]
    private let granted: Counter

    private struct Head: Sendable {
        let content: Product.Content
        let headers: ResponseHeaders
        let accelRedirect: String
    }

    /// Reads `content.delivery` and `content.x_accel_location` from `section`, problems at their key paths.
    package init(section: ConfigReader, catalog: Catalog, metricsFactory: any MetricsFactory) {
        let text = section.string("delivery", default: Mode.xAccel.rawValue)
        mode = Mode(rawValue: text) ?? .xAccel
        if Mode(rawValue: text) == nil { section.report("delivery", "must be x-accel or stream, not \"\(text)\"") }
        let location = section.string("x_accel_location", default: "/_storegate_content/")
        if !location.hasPrefix("/") || !location.hasSuffix("/") {
            section.report("x_accel_location", "must be an nginx location path starting and ending with /")
        }
        contentRoot = ContentRoot(path: catalog.contentRoot)
        granted = Counter(
            label: "storegate_downloads_granted_total", dimensions: [("delivery", mode.rawValue)],
            factory: metricsFactory)
        var heads: [String: Head] = [:]
        for product in catalog.products {
            guard let content = product.content else { continue }
            let name = String(
                (content.relativePath.split(separator: "/").last ?? "content").map {
                    $0 == "\"" || $0 == "\\" ? "_" : $0
                })
            heads[product.id] = Head(
                content: content,
                headers: [
                    ("Content-Type", content.contentType), ("Content-Disposition", "attachment; filename=\"\(name)\""),
                ],
                accelRedirect: location + Self.uriPath(content.relativePath))
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
        }
        response.logMetadata = ["environment": "\(grant.environment)", "product": "\(grant.productId)"]
        return response
    }

    private func stream(
        _ head: Head, grant: ContentGrant, request: GatewayRequest, context: RequestContext,
        record: (String) throws(GatewayError) -> Void
    ) throws -> GatewayResponse {
        let content = head.content
        guard case .success(let path) = contentRoot.file(content.relativePath),
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        else {
            context.logger.error("a catalog file is missing", metadata: ["path": "\(content.relativePath)"])
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

    /// `relative` percent-encoded segment by segment for the X-Accel-Redirect URI.
    static func uriPath(_ relative: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        return relative.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
            .joined(separator: "/")
    }
}
