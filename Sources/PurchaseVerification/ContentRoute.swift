import GatewayCore

/// The handler module that mounts a ``ContentHandler``: the handler behind the load's verification service.
/// The only way a content handler becomes a route; its responder is not a requirement anyone else can fill.
public enum ContentRoute<Handler: ContentHandler>: HandlerModule {
    public static var name: String { Handler.name }
    public static var methods: [HTTPMethod] { Handler.methods }
    public static var servesSubpaths: Bool { Handler.servesSubpaths }

    public static func makeResponder(settings: HandlerSettings) throws -> any RouteResponder {
        VerifiedContentResponder(handler: try Handler(settings: settings), service: try settings.verificationService())
    }
}

extension HandlerRegistry {
    /// The module type that mounts the content handler `handler`: ``ContentRoute``, behind verification.
    public static func module<Handler: ContentHandler>(_ handler: Handler.Type) -> any HandlerModule.Type {
        ContentRoute<Handler>.self
    }
}

/// A content handler behind the verification service: names the product, has the credential checked for
/// it, and hands the handler the entitlement.
struct VerifiedContentResponder<Handler: ContentHandler>: RouteResponder {
    let handler: Handler
    let service: VerificationService

    func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let productId = try handler.requestedProduct(in: request, context: context)
        let entitlement = try service.entitlement(to: productId, for: request, context: context)
        return try handler.respond(to: request, entitlement: entitlement, context: context)
    }
}
