import GatewayHandlerAPI

/// The handler modules a binary was built with, by their config names. A value, passed to whatever builds the
/// gateway: the `storegate` executable passes the generated list of compiled-in modules.
package struct HandlerRegistry: Sendable {
    private let modules: [String: HandlerModule]

    /// A registry of `modules`; a later module with an already-registered name replaces the earlier one.
    package init(_ modules: [HandlerModule]) {
        self.modules = Dictionary(modules.map { ($0.name, $0) }, uniquingKeysWith: { _, later in later })
    }

    /// This registry with `more` modules added.
    package func adding(_ more: [HandlerModule]) -> HandlerRegistry {
        HandlerRegistry(Array(modules.values) + more)
    }

    /// The module registered as `name`.
    package func module(named name: String) -> HandlerModule? { modules[name] }

    /// Every registered module, by name.
    package var all: [HandlerModule] { modules.keys.sorted().compactMap { modules[$0] } }

    /// Every registered name, sorted.
    package var names: [String] { modules.keys.sorted() }
}
