/// The handler modules a binary was built with, by their config names, and the values it provides to every
/// load (such as the verifier backends it carries). A value, passed to whatever builds the gateway: the
/// `storegate` executable passes the generated list of compiled-in modules.
public struct HandlerRegistry: Sendable {
    private let modules: [String: any HandlerModule.Type]
    private let provided: [ObjectIdentifier: any Sendable]

    /// A registry of `modules`; a later module with an already-registered name replaces the earlier one.
    public init(_ modules: [any HandlerModule.Type]) {
        self.init(modules: modules, provided: [:])
    }

    private init(modules: [any HandlerModule.Type], provided: [ObjectIdentifier: any Sendable]) {
        self.modules = Dictionary(modules.map { ($0.name, $0) }, uniquingKeysWith: { _, later in later })
        self.provided = provided
    }

    /// The module type that mounts `handler`: the handler itself. Content handlers are registered through
    /// the verification module's overload of this function, which puts them behind verification.
    public static func module<Handler: HandlerModule>(_ handler: Handler.Type) -> any HandlerModule.Type {
        handler
    }

    /// This registry with `more` modules added.
    public func adding(_ more: [any HandlerModule.Type]) -> HandlerRegistry {
        HandlerRegistry(modules: Array(modules.values) + more, provided: provided)
    }

    /// This registry, providing `value` under `key` to every load (``HandlerSettings/provided(_:)``).
    public func providing<Value: Sendable>(_ key: SharedKey<Value>, _ value: Value) -> HandlerRegistry {
        var provided = provided
        provided[key.id] = value
        return HandlerRegistry(modules: Array(modules.values), provided: provided)
    }

    /// The value provided under `key`, if any.
    public func provided<Value: Sendable>(_ key: SharedKey<Value>) -> Value? { provided[key.id] as? Value }

    /// The module registered as `name`.
    public func module(named name: String) -> (any HandlerModule.Type)? { modules[name] }

    /// Every registered name, sorted.
    public var names: [String] { modules.keys.sorted() }
}
