import GatewayHandlerAPI

/// A test content route whose product is the rest of the path after its mount point (`{route}/{product}`).
public protocol ProductInPath: ContentHandler {
    /// The route's mount path, from its setup.
    var routePath: String { get }
}

extension ProductInPath {
    public func requestedProduct(in request: GatewayRequest, context: RequestContext) throws -> String {
        String(request.path.dropFirst(routePath.count + 1))
    }
}
