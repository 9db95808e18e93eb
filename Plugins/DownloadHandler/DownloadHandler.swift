import CoreMetrics
import Foundation
import GatewayCore
import ProductCatalog
import PurchaseVerification

/// `GET|POST /v1/download/{product_id}`: a purchased product's file, mounted behind verification
/// (``ContentRoute``). Only the catalog maps ids to files. Each grant is recorded before any byte goes out;
/// nginx then sends the file (`delivery: x-accel`), or the gateway streams it itself (`stream`).
public struct DownloadHandler: ContentHandler {
    public static let name = "download"

    enum DeliveryMode: String {
        case xAccel = "x-accel"
        case stream
    }

    private let routePath: String
    private let catalog: Catalog
    private let contentRoot: ContentRoot
    private let delivery: DeliveryMode
    private let xAccelLocation: String
    private let granted: Counter
    /// Each content product's file with its fixed answer headers and X-Accel-Redirect URI, worked out once.
    private let heads: [String: ContentHead]

    private struct ContentHead {
        let content: Product.Content
        let headers: ResponseHeaders
        let accelRedirect: String
    }

    public init(settings: HandlerSettings) throws {
        if try settings.downloadTokens() == nil {
            settings.config.scoped("tokens").report(
                "secret", "is required by the download route (set STOREGATE_TOKENS_SECRET)")
        }
        routePath = settings.routePath
        catalog = try settings.catalog()
        contentRoot = ContentRoot(path: catalog.contentRoot)
        let content = settings.config.scoped("content")
        let mode = content.string("delivery", default: DeliveryMode.xAccel.rawValue)
        delivery = DeliveryMode(rawValue: mode) ?? .xAccel
        if DeliveryMode(rawValue: mode) == nil {
            content.report("delivery", "must be x-accel or stream, not \"\(mode)\"")
        }
        granted = Counter(
            label: "storegate_downloads_granted_total", dimensions: [("delivery", delivery.rawValue)],
            factory: settings.metrics.factory)
        xAccelLocation = content.string("x_accel_location", default: "/_storegate_content/")
        if !xAccelLocation.hasPrefix("/") || !xAccelLocation.hasSuffix("/") {
            content.report("x_accel_location", "must be an nginx location path starting and ending with /")
        }
        var heads: [String: ContentHead] = [:]
        for product in catalog.products {
            guard let content = product.content else { continue }
            let name = String(
                (content.relativePath.split(separator: "/").last ?? "content").map {
                    $0 == "\"" || $0 == "\\" ? "_" : $0
                })
            heads[product.id] = ContentHead(
                content: content,
                headers: [
                    ("Content-Type", content.contentType), ("Content-Disposition", "attachment; filename=\"\(name)\""),
                    ("Cache-Control", "private, no-store"),
                ],
                accelRedirect: xAccelLocation + Self.uriPath(content.relativePath))
        }
        self.heads = heads
    }

    public func requestedProduct(in request: GatewayRequest, context: RequestContext) throws -> String {
        let id = String(request.path.dropFirst(routePath.count + 1))
        guard request.path.hasPrefix(routePath + "/"), ProductId.isValid(id), let product = catalog.product(id: id)
        else { throw GatewayError.unknownProduct }
        guard product.content != nil else { throw GatewayError.noContent }
        return id
    }

    public func respond(to request: GatewayRequest, entitlement: VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
    {
        var response = try answer(request, entitlement: entitlement, context: context)
        response.logMetadata = ["environment": "\(entitlement.environment)", "product": "\(entitlement.productId)"]
        return response
    }

    private func answer(_ request: GatewayRequest, entitlement: VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
    {
        guard let head = heads[entitlement.productId] else { throw GatewayError.noContent }
        switch delivery {
        case .xAccel:
            try record(entitlement, content: head.content, context: context)
            return GatewayResponse(status: 200, headers: head.headers + [("X-Accel-Redirect", head.accelRedirect)])
        case .stream:
            return try stream(
                head.content, request: request, headers: head.headers, entitlement: entitlement, context: context)
        }
    }

    private func stream(
        _ content: Product.Content,
        request: GatewayRequest,
        headers: ResponseHeaders,
        entitlement: VerifiedEntitlement,
        context: RequestContext
    ) throws -> GatewayResponse {
        guard case .success(let path) = contentRoot.file(content.relativePath),
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        else {
            context.logger.error("a catalog file is missing", metadata: ["path": "\(content.relativePath)"])
            throw GatewayError.internalError
        }
        var headers = headers + [("ETag", "\"\(content.sha256)\""), ("Accept-Ranges", "bytes")]
        switch ByteRange(header: request.header("Range"), size: size) {
        case .unsatisfiable:
            headers.add("Content-Range", "bytes */\(size)")
            return GatewayResponse(status: 416, headers: headers)
        case .whole:
            if request.method != .head { try record(entitlement, content: content, context: context) }
            return GatewayResponse(status: 200, headers: headers, file: FileSlice(path: path, offset: 0, length: size))
        case .part(let offset, let length):
            if request.method != .head { try record(entitlement, content: content, context: context) }
            headers.add("Content-Range", "bytes \(offset)-\(offset + length - 1)/\(size)")
            return GatewayResponse(
                status: 206, headers: headers, file: FileSlice(path: path, offset: offset, length: length))
        }
    }

    /// Records the grant; without a record there is no download.
    private func record(_ entitlement: VerifiedEntitlement, content: Product.Content, context: RequestContext) throws {
        try entitlement.recordDelivery(contentSHA256: content.sha256, context: context)
        granted.increment()
    }

    /// `relative` percent-encoded segment by segment for the X-Accel-Redirect URI.
    static func uriPath(_ relative: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        return relative.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
            .joined(separator: "/")
    }
}
