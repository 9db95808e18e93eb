import Logging

/// What a handler module is built from: the whole config (read your own scope), the process-wide counters,
/// a logger, and a per-load store for work several handlers share (the catalog is loaded once, not per route).
public struct HandlerSettings: Sendable {
    /// A reader for the whole config document; handlers read their own scopes of it.
    public let config: ConfigReader
    public let stats: GatewayStats
    /// Make metrics with `factory: metrics.factory`; they live in the process's Prometheus registry.
    public let metrics: GatewayMetrics
    public let logger: Logger
    /// The path this handler is mounted at.
    public let routePath: String
    private let store: SharedStore
    private let registry: HandlerRegistry

    init(
        config: ConfigReader, stats: GatewayStats, metrics: GatewayMetrics, logger: Logger, routePath: String,
        store: SharedStore, registry: HandlerRegistry
    ) {
        self.config = config
        self.stats = stats
        self.metrics = metrics
        self.logger = logger
        self.routePath = routePath
        self.store = store
        self.registry = registry
    }

    /// The value stored under `key` in this load, built by `make` the first time any handler asks.
    /// A failure is stored too, so a problem shared by several routes is reported once.
    public func shared<Value: Sendable>(_ key: SharedKey<Value>, make: () throws -> Value) throws -> Value {
        try store.value(for: key, make: make)
    }

    /// The value another handler of this load already built under `key`, if any (never builds it).
    public func existing<Value: Sendable>(_ key: SharedKey<Value>) -> Value? {
        store.existing(for: key)
    }

    /// The value the binary provides under `key` for every load (``HandlerRegistry/providing(_:_:)``).
    public func provided<Value: Sendable>(_ key: SharedKey<Value>) -> Value? {
        registry.provided(key)
    }
}
