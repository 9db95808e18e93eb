/// A route's answer: what a mounted handler module looks like to the router.
public protocol RouteResponder: Sendable {
    /// Answers one request. Runs on the worker thread that read it, so it must not block beyond
    /// `context.deadline`; throw ``GatewayError`` for answers of the error table.
    func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse
}

/// A handler module: a type the config names in `routes[].handler`, built from its settings at each (re)load.
///
/// Conform through ``GatewayHandler`` for ordinary routes. Routes that deliver purchased content are the
/// verification module's `ContentHandler`s, which that module mounts itself (`HandlerRegistry.module(_:)`).
public protocol HandlerModule: Sendable {
    /// The config's `handler:` value, such as `catalog`.
    static var name: String { get }
    /// Methods the route accepts; others get 405 with `Allow`. Defaults to GET and HEAD.
    static var methods: [HTTPMethod] { get }
    /// Whether the route also serves paths below it (`/v1/download/{id}` under `/v1/download`). Defaults to false.
    static var servesSubpaths: Bool { get }
    /// Builds the responder for one mounted route. Report config problems through `settings.config`
    /// and throw ``ConfigProblems`` (or any error) when the handler cannot be built.
    static func makeResponder(settings: HandlerSettings) throws -> any RouteResponder
}

extension HandlerModule {
    public static var methods: [HTTPMethod] { [.get, .head] }
    public static var servesSubpaths: Bool { false }
}

/// A handler module that answers requests itself, with no entitlement needed.
///
/// Contract: `init(settings:)` reads only its own config keys, does its expensive work (loading files,
/// rendering fixed bodies) there, once per load, and keeps `respond` cheap.
public protocol GatewayHandler: HandlerModule, RouteResponder {
    init(settings: HandlerSettings) throws
}

extension GatewayHandler {
    public static func makeResponder(settings: HandlerSettings) throws -> any RouteResponder {
        try Self(settings: settings)
    }
}
