import GatewayCore

/// A handler module that delivers purchased content. It is only ever mounted behind
/// ``ReceiptVerificationMiddleware``: its entry point takes a ``VerifiedEntitlement``, which nothing
/// else can make.
///
/// Contract: `requestedProduct(in:)` names the product the request is for (from the path, never as a file
/// path) or throws 404; `respond(to:entitlement:context:)` runs only when the caller is entitled to it.
public protocol ContentHandler: HandlerModule {
    init(settings: HandlerSettings) throws
    /// The product id the request asks for.
    func requestedProduct(in request: GatewayRequest, context: RequestContext) throws -> String
    func respond(to request: GatewayRequest, entitlement: VerifiedEntitlement, context: RequestContext) throws
        -> GatewayResponse
}

extension ContentHandler {
    public static var methods: [HTTPMethod] { [.get, .head, .post] }
    public static var servesSubpaths: Bool { true }

    /// Mounts the handler behind the middleware with the App Store verifier of this load.
    public static func makeResponder(settings: HandlerSettings) throws -> any RouteResponder {
        VerifiedContentRoute(handler: try Self(settings: settings), verifier: try settings.appStoreVerifier())
    }
}

/// A content handler mounted behind the verification middleware: the only way a ``ContentHandler``
/// becomes a route.
public struct VerifiedContentRoute<Handler: ContentHandler>: RouteResponder {
    public let verification: ReceiptVerificationMiddleware
    public let handler: Handler

    public init(handler: Handler, verifier: any EntitlementVerifier) {
        self.handler = handler
        self.verification = ReceiptVerificationMiddleware(verifier: verifier)
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let productId = try handler.requestedProduct(in: request, context: context)
        let entitlement = try verification.verify(request, productId: productId, context: context)
        return try handler.respond(to: request, entitlement: entitlement, context: context)
    }
}
