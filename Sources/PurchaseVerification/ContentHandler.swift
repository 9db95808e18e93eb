import GatewayCore

/// A handler module that delivers purchased content. It becomes a route only as a ``ContentRoute``, which
/// checks the request's credential with the load's verification service first: its entry point takes a
/// ``VerifiedEntitlement``, which nothing else can make. Register it with `HandlerRegistry.module(_:)`.
///
/// Contract: `init(settings:)` reads only its own config keys; `requestedProduct(in:context:)` names the
/// product the request is for (from the path, never as a file path) or throws 404;
/// `respond(to:entitlement:context:)` runs only when the caller is entitled to it.
public protocol ContentHandler: Sendable {
    /// The config's `handler:` value, such as `download`.
    static var name: String { get }
    /// Methods the route accepts. Defaults to GET, HEAD and POST (a receipt in the body).
    static var methods: [HTTPMethod] { get }
    /// Whether the route serves paths below it. Defaults to true (`/v1/download/{product_id}`).
    static var servesSubpaths: Bool { get }
    init(settings: HandlerSettings) throws
    /// The product id the request asks for.
    func requestedProduct(in request: GatewayRequest, context: RequestContext) throws -> String
    func respond(to request: GatewayRequest, entitlement: VerifiedEntitlement, context: RequestContext) throws
        -> GatewayResponse
}

extension ContentHandler {
    public static var methods: [HTTPMethod] { [.get, .head, .post] }
    public static var servesSubpaths: Bool { true }
}
