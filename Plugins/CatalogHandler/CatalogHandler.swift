import GatewayHandlerAPI

/// `GET /v1/catalog`: the products the app may sell, with each content file's size and SHA-256.
///
/// The body and its ETag are rendered once per load, so answering costs about what a hello world does.
public struct CatalogHandler: GatewayHandler {
    public static let name = "catalog"

    private let etag: String
    private let full: GatewayResponse
    private let notModified: GatewayResponse

    public init(_ setup: HandlerSetup, needs catalog: Catalog) {
        etag = "\"\(catalog.version)\""
        let headers: ResponseHeaders = [("ETag", etag), ("Cache-Control", "public, max-age=60")]
        full = .json(catalog.renderJSON(), headers: headers)
        notModified = GatewayResponse(status: 304, headers: headers)
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        if let candidates = request.header("If-None-Match"), EntityTag.list(candidates, matches: etag) {
            return notModified
        }
        return full
    }
}
