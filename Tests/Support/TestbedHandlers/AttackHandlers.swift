import Foundation
import GatewayHandlerAPI
import Synchronization

/// Handlers that attack the seal at run time through the handler API, as a careless or hurried module author
/// might: the end-to-end tests check that no content leaves through them.

/// `GET /accel-header`: a plain handler that answers with every header that would have a web server send a file
/// in its place (nginx's `X-Accel-Redirect`, also smuggled in a header's name after a colon; `X-Sendfile` and
/// its kin), and a local `Location` (also behind a space, a vertical tab or a form feed, which Apache skips) a CGI
/// web server would serve in the gateway's place; LiteSpeed's `X-LiteSpeed-Location` and H2O's `X-Reproxy-URL`,
/// which have those servers send a file or fetch a URL. With `?error`, the same headers come with a thrown error;
/// with `?status` or `?error-status`, with a status that is not an HTTP status, which Apache's `atoi` reads as a
/// 200 (4294967496 is 200 modulo 2^32); with `?interim` or `?error-interim`, with an interim status (101), which
/// nginx relays with its body, a final answer of the module's making behind it (a twenty-sixth reviewer's).
public struct AccelHeaderHandler: GatewayHandler {
    public static let name = "accel-header"

    /// The content file the headers point at.
    static let target = "/_storegate_content/issues/1.bin"

    static let headers: [(name: String, value: String)] = [
        ("Content-Type", "application/octet-stream"), ("X-Accel-Redirect", target), ("x-sendfile", target),
        ("X-Accel-Redirect: \(target)?", "x"), ("X-Sendfile2", "\(target) 0-"), ("X-Sendfile-Temporary", target),
        ("X-LIGHTTPD-send-file", target), ("Location", " " + target), ("Location", "\u{0B}" + target),
        ("Location", "\u{0C}" + target), ("Location: \(target)?", "x"),
        ("X-Accel-Redirect ", target), ("Status", "206 Partial Content"), ("X-LiteSpeed-Location", target),
        ("X-Reproxy-URL", "http://127.0.0.1\(target)"), ("X-Kept", "yes"),
    ]

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let status = request.query.hasSuffix("interim") ? 101 : request.query.hasSuffix("status") ? 4_294_967_496 : 200
        guard !request.query.hasPrefix("error") else {
            throw GatewayError(
                ErrorCode("smuggled"), status: status, message: "",
                headers: Self.headers.map { GatewayError.Header(name: $0.name, value: $0.value) })
        }
        return GatewayResponse(status: status, headers: ResponseHeaders(Self.headers))
    }
}

/// `/upgrade/{product}`: a content route verified for one product that adds another file's X-Accel-Redirect
/// (smuggled in a header's name) before its own content.
public struct UpgradeContentHandler: ProductInPath {
    public static let name = "upgrade"

    public let routePath: String

    public init(_ setup: HandlerSetup, needs: NoNeeds) { routePath = setup.routePath }

    public func respond(to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
    {
        var response = try entitlement.content()
        response.headers = [("X-Accel-Redirect: /_storegate_content/other/2.bin?", "x")] + response.headers
        return response
    }
}

/// A capability kept in a global by one handler, for handlers that were handed nothing.
let parked = Mutex<GatewayStatus?>(nil)
/// A context kept from an earlier request.
let keptContext = Mutex<RequestContext?>(nil)

/// `GET /parking`: declares the status capability and keeps it in a global.
public struct ParkingHandler: GatewayHandler {
    public static let name = "parking"

    public init(_ setup: HandlerSetup, needs status: GatewayStatus) {
        parked.withLock { $0 = status }
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        .json(Array("{\"version\":\"\(try parked.withLock { $0 }?.report().version ?? "")\"}".utf8))
    }
}

/// `GET /borrowing`: declares nothing, and uses the status capability another route was handed.
public struct BorrowingHandler: GatewayHandler {
    public static let name = "borrowing"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        guard let status = parked.withLock({ $0 }) else { throw GatewayError.notFound }
        return .json(Array("{\"version\":\"\(try status.report().version)\"}".utf8))
    }
}

/// `POST /replay-verify`: verifies the request's body, but from the second request on, with the context of the
/// first (whoever sent it), as a handler that keeps what it was handed would.
public struct ReplayVerifyHandler: GatewayHandler {
    public static let name = "replay-verify"
    public static var methods: [HTTPMethod] { [.post] }

    private let verifier: PurchaseVerifier

    public init(_ setup: HandlerSetup, needs verifier: PurchaseVerifier) { self.verifier = verifier }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let used = keptContext.withLock { kept in
            if kept == nil { kept = context }
            return kept ?? context
        }
        let verified = try verifier.verify(context: used)
        return .verification(of: verified) { json in
            json.key("entitlements")
            verified.writeEntitlements(to: &json)
        }
    }
}

/// Content answers kept by ``StashingContentHandler`` for later requests.
let stash = Mutex<GatewayResponse?>(nil)

/// `/stashing-content/{product}`: a content route that keeps the first content answer it is handed and answers
/// every later request, whatever its product, with that one.
public struct StashingContentHandler: ProductInPath {
    public static let name = "stashing-content"

    public let routePath: String

    public init(_ setup: HandlerSetup, needs: NoNeeds) {
        routePath = setup.routePath
    }

    public func respond(to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
    {
        if let kept = stash.withLock({ $0 }) { return kept }
        let content = try entitlement.content()
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

/// The entitlement ``EntitlementKeepingHandler`` kept: a copy in a global `Optional`, which the compiler lets
/// escape (a twenty-first reviewer's).
nonisolated(unsafe) var keptEntitlement: VerifiedEntitlement? = nil

/// `/entitlement-keeper/{product}`: a content route that keeps a copy of the first entitlement it is handed,
/// and on every later request asks it for content twice, from a thread of its own (answering nothing) and on
/// the request in hand, then answers that request with its own entitlement's content.
public struct EntitlementKeepingHandler: ProductInPath {
    public static let name = "entitlement-keeper"

    public let routePath: String

    public init(_ setup: HandlerSetup, needs: NoNeeds) {
        routePath = setup.routePath
    }

    public func respond(to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
    {
        guard keptEntitlement == nil else {
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                _ = try? keptEntitlement?.content()
                done.signal()
            }
            done.wait()
            _ = try? keptEntitlement?.content()
            return try entitlement.content()
        }
        keptEntitlement = copy entitlement
        return try entitlement.content()
    }
}

/// `/repeating-content/{product}`: a content route that asks its entitlement for content fifty times in one
/// request and answers with the first (a twenty-second reviewer's: the ledger recorded fifty deliveries).
public struct RepeatingContentHandler: ProductInPath {
    public static let name = "repeating-content"

    public let routePath: String

    public init(_ setup: HandlerSetup, needs: NoNeeds) {
        routePath = setup.routePath
    }

    public func respond(to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
    {
        let first = try entitlement.content()
        for _ in 1..<50 { _ = try? entitlement.content() }
        return first
    }
}
