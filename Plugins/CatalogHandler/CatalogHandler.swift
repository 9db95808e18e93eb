import GatewayCore
import ProductCatalog

/// `GET /v1/catalog`: the products the app may sell, with each content file's size and SHA-256.
///
/// The body and its ETag are rendered once per load, so answering costs about what a hello world does.
public struct CatalogHandler: GatewayHandler {
    public static let name = "catalog"

    private let body: [UInt8]
    private let etag: String
    private let cacheControl = "public, max-age=60"

    public init(settings: HandlerSettings) throws {
        let catalog = try settings.catalog()
        body = catalog.renderJSON()
        etag = "\"\(catalog.version)\""
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let headers = [("ETag", etag), ("Cache-Control", cacheControl)]
        if let candidates = request.header("If-None-Match"), EntityTag.list(candidates, matches: etag) {
            return GatewayResponse(status: 304, headers: headers)
        }
        return .json(body, headers: headers)
    }
}
