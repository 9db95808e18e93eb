/// What a handler declares it needs (its `Needs`): one capability such as ``PurchaseVerifier``, several as
/// ``Capabilities``, or ``NoNeeds``. The gateway hands exactly that at each load.
///
/// Only this module's types are handed out: a handler module whose `Needs` is a type of its own is refused
/// when the binary starts (its ``provided(by:)`` would be handed the route's real ``CapabilitySource``, to keep).
public protocol HandlerNeeds: Sendable {
    /// The capability of this load; the gateway calls it, never a handler.
    static func provided(by source: CapabilitySource) throws -> Provision<Self>
}

/// The needs the gateway hands out: this module's capabilities, ``NoNeeds``, and ``Capabilities`` of them.
/// Not visible to handler modules, so none can add a type to it.
package protocol HandedOutNeeds: HandlerNeeds {}

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
public struct NoNeeds: HandedOutNeeds {
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

extension Capabilities: HandedOutNeeds where repeat each Capability: HandedOutNeeds {}
