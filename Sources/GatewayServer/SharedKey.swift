import GatewayCore

/// The typed name of a value built once per config load and shared by the handlers of that load (the
/// catalog, the ledger, the verification service), or provided by the binary for every load.
///
/// Keys compare by identity: declare each one once, as a `static let` of the module that owns the value.
package final class SharedKey<Value: Sendable>: Sendable {
    /// Names the value in diagnostics; two keys with the same name are still different keys.
    package let name: String

    package init(_ name: String) {
        self.name = name
    }

    var id: ObjectIdentifier { ObjectIdentifier(self) }
}
