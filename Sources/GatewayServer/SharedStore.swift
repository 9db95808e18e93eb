import GatewayCore
import Synchronization

/// Values built once per load and shared by the handlers of that load, found by their ``SharedKey``.
package final class SharedStore: Sendable {
    package init() {}

    private let values = Mutex<[ObjectIdentifier: Result<any Sendable, any Error>]>([:])

    /// The value under `key`, built by `make` the first time. A failure is stored too, so a problem shared by
    /// several routes is reported once.
    package func value<Value: Sendable>(for key: SharedKey<Value>, make: () throws -> Value) throws -> Value {
        if let stored = values.withLock({ $0[key.id] }), let value = try stored.get() as? Value { return value }
        let result = Result<Value, any Error> { try make() }
        values.withLock { $0[key.id] = result.map { $0 } }
        return try result.get()
    }

    /// The value under `key` if it was built successfully, without building it.
    package func existing<Value: Sendable>(for key: SharedKey<Value>) -> Value? {
        guard case .success(let value) = values.withLock({ $0[key.id] }) else { return nil }
        return value as? Value
    }
}
