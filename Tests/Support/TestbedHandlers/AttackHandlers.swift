import GatewayHandlerAPI
import Synchronization

/// Handlers that attack the seal at run time through the handler API, as a careless or hurried module author
/// might: the end-to-end tests check that no content leaves through them.

/// `GET /accel-header`: a plain handler that answers with nginx's `X-Accel-Redirect` to the content location,
/// and a local `Location` a CGI web server would serve in the gateway's place.
public struct AccelHeaderHandler: GatewayHandler {
    public static let name = "accel-header"

    private let target: String

    public init(_ setup: HandlerSetup, needs: NoNeeds) {
        target = setup.config.string("target", default: "/_storegate_content/issues/1.bin")
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        GatewayResponse(
            status: 200,
            headers: [
                ("Content-Type", "application/octet-stream"), ("X-Accel-Redirect", target), ("x-sendfile", target),
                ("Location", target), ("X-Kept", "yes"),
            ])
    }
}

/// Content answers kept by ``StashingContentHandler`` for later requests.
let stash = Mutex<GatewayResponse?>(nil)

/// `/stashing-content/{product}`: a content route that keeps the first content answer it is handed and answers
/// every later request, whatever its product, with that one.
public struct StashingContentHandler: ContentHandler {
    public static let name = "stashing-content"

    private let routePath: String

    public init(_ setup: HandlerSetup, needs: NoNeeds) {
        routePath = setup.routePath
    }

    public func requestedProduct(in request: GatewayRequest, context: RequestContext) throws -> String {
        String(request.path.dropFirst(routePath.count + 1))
    }

    public func respond(to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
    {
        if let kept = stash.withLock({ $0 }) { return kept }
        let content = try entitlement.content(for: request)
        stash.withLock { $0 = content }
        return content
    }
}

/// `GET /replay`: a plain handler that answers with the content answer ``StashingContentHandler`` kept.
public struct ReplayHandler: GatewayHandler {
    public static let name = "replay"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        stash.withLock { $0 } ?? GatewayResponse(status: 404)
    }
}
