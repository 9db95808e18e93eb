/// What a handler declares it needs (its `Needs`): one capability such as ``PurchaseVerifier``, several as
/// ``Capabilities``, or ``NoNeeds``. The gateway hands exactly that at each load.
///
/// Only this module's types can conform usefully: ``provided(by:)`` must return a ``Provision``, which only
/// the gateway makes, from a ``CapabilitySource`` that has nothing a module can call.
public protocol HandlerNeeds: Sendable {
    /// The capability of this load; the gateway calls it, never a handler.
    static func provided(by source: CapabilitySource) throws -> Provision<Self>
}

/// A capability as the gateway hands it over. Only the gateway makes one and takes its value out.
public struct Provision<Value: Sendable>: Sendable {
    package let value: Value

    package init(_ value: Value) { self.value = value }
}

/// Where one route's capabilities come from. Opaque: a handler can do nothing with it, and a mirror shows
/// nothing (the provider holds the whole config).
public struct CapabilitySource: Sendable, CustomReflectable {
    package let provider: any CapabilityProvider
    /// The route being built: its capabilities act only while it answers.
    let use: CapabilityUse

    package init(_ provider: any CapabilityProvider, routePath: String) {
        self.provider = provider
        use = CapabilityUse(route: routePath)
    }

    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// A handler that needs nothing beyond its ``HandlerSetup``.
public struct NoNeeds: HandlerNeeds {
    public static func provided(by source: CapabilitySource) throws -> Provision<NoNeeds> { Provision(NoNeeds()) }
}

/// Several capabilities at once, in the order declared: `Capabilities<Catalog, PurchaseVerifier>`, read as
/// `needs.values.0` and `needs.values.1`.
public struct Capabilities<each Capability: HandlerNeeds>: HandlerNeeds {
    public let values: (repeat each Capability)

    private init(_ values: repeat each Capability) { self.values = (repeat each values) }

    public static func provided(by source: CapabilitySource) throws -> Provision<Self> {
        Provision(Self(repeat try (each Capability).provided(by: source).value))
    }
}
