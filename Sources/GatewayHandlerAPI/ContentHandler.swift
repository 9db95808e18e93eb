/// A handler module that delivers purchased content. It becomes a route only behind the load's verification:
/// its `respond` runs with a ``VerifiedEntitlement`` that only that verification makes, for the product the
/// request asked for, and the content goes out only through the entitlement (``VerifiedEntitlement/content()``).
///
/// Contract: as ``GatewayHandler``'s `init`; `requestedProduct(in:context:)` names the product the request is
/// for (from the path, never as a file path) or throws 404; `respond` shapes the answer (headers, log facts).
public protocol ContentHandler: Sendable {
    /// The capabilities the handler is handed; ``NoNeeds`` by default.
    associatedtype Needs: HandlerNeeds = NoNeeds
    /// The config's `handler:` value, such as `download`.
    static var name: String { get }
    /// Methods the route accepts. Defaults to GET, HEAD and POST (a receipt in the body).
    static var methods: [HTTPMethod] { get }
    /// Whether the route serves paths below it. Defaults to true (`/v1/download/{product_id}`).
    static var servesSubpaths: Bool { get }
    /// Whether clients come to the route with the download tokens verify hands out, so a deployment without
    /// `tokens.secret` is refused. Defaults to false.
    static var needsDownloadTokens: Bool { get }
    init(_ setup: HandlerSetup, needs: Needs) throws
    /// The product id the request asks for.
    func requestedProduct(in request: GatewayRequest, context: RequestContext) throws -> String
    /// Answers a request whose caller holds `entitlement`, good for this request only.
    func respond(to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
}

extension ContentHandler {
    public static var methods: [HTTPMethod] { [.get, .head, .post] }
    public static var servesSubpaths: Bool { true }
    public static var needsDownloadTokens: Bool { false }
}
