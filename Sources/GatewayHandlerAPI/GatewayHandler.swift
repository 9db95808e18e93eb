/// A handler module that answers requests itself, with no entitlement needed: a type the config names in
/// `routes[].handler`, built at each (re)load from its ``HandlerSetup`` and the capabilities it declares.
///
/// Contract: `init` reads only its own config section (`setup.config`), does its expensive work (loading
/// files, rendering fixed bodies) there, once per load, and keeps `respond` cheap. It reaches nothing but what
/// it is handed: declare a capability in ``Needs`` to get it.
public protocol GatewayHandler: RouteResponder {
    /// The capabilities the handler is handed, such as ``PurchaseVerifier``; ``NoNeeds`` by default.
    associatedtype Needs: HandlerNeeds = NoNeeds
    /// The config's `handler:` value, such as `catalog`.
    static var name: String { get }
    /// Methods the route accepts; others get 405 with `Allow`. Defaults to GET and HEAD.
    static var methods: [HTTPMethod] { get }
    /// Whether the route also serves paths below it. Defaults to false.
    static var servesSubpaths: Bool { get }
    /// Builds the handler for one mounted route. Report config problems through `setup.config` and throw
    /// ``ConfigProblems`` (or any error) when it cannot be built.
    init(_ setup: HandlerSetup, needs: Needs) throws
}

extension GatewayHandler {
    public static var methods: [HTTPMethod] { [.get, .head] }
    public static var servesSubpaths: Bool { false }
}
