import GatewayCore

/// A store module's entry point: builds the store's verification backends for one config load from its
/// own config section.
///
/// Contract: return no backends when `section` is absent from the config; report problems through
/// `settings.config` (they are listed by `check-config` and refuse a reload); declare the module's error
/// codes with `settings.metrics.declare`.
@_spi(VerifierBackends)
public protocol VerifierProvider: Sendable {
    /// The config section that configures this store, such as `apple`.
    static var section: String { get }
    /// The backends to ask, in order, for this load.
    static func makeBackends(settings: HandlerSettings) throws -> [any VerificationBackend]
}
