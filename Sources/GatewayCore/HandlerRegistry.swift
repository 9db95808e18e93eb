/// The handler modules a binary was built with, by their config names. A value, passed to whatever
/// builds the gateway: the `storegate` executable passes the generated list of compiled-in modules.
public struct HandlerRegistry: Sendable {
    private let modules: [String: any HandlerModule.Type]

    /// A registry of `modules`; a later module with an already-registered name replaces the earlier one.
    public init(_ modules: [any HandlerModule.Type]) {
        self.modules = Dictionary(modules.map { ($0.name, $0) }, uniquingKeysWith: { _, later in later })
    }

    /// This registry with `more` modules added.
    public func adding(_ more: [any HandlerModule.Type]) -> HandlerRegistry {
        HandlerRegistry(Array(modules.values) + more)
    }

    /// The module registered as `name`.
    public func module(named name: String) -> (any HandlerModule.Type)? { modules[name] }

    /// Every registered name, sorted.
    public var names: [String] { modules.keys.sorted() }
}
