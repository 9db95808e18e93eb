import GatewayHandlerAPI

/// `GET|POST /v1/download/{product_id}`: a purchased product's file, behind verification: the route names the
/// product (only the catalog maps ids to files), and the entitlement it is handed delivers the file, after
/// recording the grant; nginx then sends it (`content.delivery: x-accel`), or the gateway streams it itself
/// (`stream`).
public struct DownloadHandler: ContentHandler {
    public static let name = "download"
    public static let needsDownloadTokens = true

    private let routePath: String
    private let catalog: Catalog

    public init(_ setup: HandlerSetup, needs catalog: Catalog) {
        routePath = setup.routePath
        self.catalog = catalog
    }

    public func requestedProduct(in request: GatewayRequest, context: RequestContext) throws -> String {
        let id = String(request.path.dropFirst(routePath.count + 1))
        guard request.path.hasPrefix(routePath + "/"), ProductId.isValid(id), let product = catalog.product(id: id)
        else { throw GatewayError.unknownProduct }
        guard product.content != nil else { throw GatewayError.noContent }
        return id
    }

    public func respond(to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
    {
        try entitlement.content()
    }
}
