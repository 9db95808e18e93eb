import GatewayHandlerAPI

/// A store module's entry point: reads the store's credentials from request bodies and builds the store's
/// verification backends for one config load from its own config section.
///
/// Contract: return no backends when the section is absent (`setup.isConfigured`); report problems through
/// `setup.section` (they are listed by `check-config` and refuse a reload); declare the module's error codes
/// with `setup.declare`.
package protocol VerifierProvider: Sendable {
    /// The config section that configures this store, such as `apple`.
    static var section: String { get }
    /// The body members that carry this store's credentials, in words, for the answer to a body without any:
    /// `"receipt-data" (the app receipt in base64), "signed-transaction" or "transaction-id"`.
    static var credentialMembers: String { get }
    /// An example body, for the answer to a body that is not a JSON object.
    static var exampleBody: String { get }
    /// This store's credential in `body`; nil when the body carries none of its members; 400 for a malformed one.
    static func credential(in body: PurchaseBody) throws(GatewayError) -> (any StoreCredential)?
    /// The backends to ask, in order, for this load.
    static func makeBackends(_ setup: StoreSetup) throws -> [any VerificationBackend]
    /// Called once per load when a route takes store notifications and the config has this store's section:
    /// reports, through `section`, what taking this store's notifications needs that the section lacks.
    static func checkNotifications(_ section: ConfigReader)
}

extension VerifierProvider {
    /// A store whose notifications need nothing more than its section.
    package static func checkNotifications(_ section: ConfigReader) {}
}
