import GatewayHandlerAPI

/// What a client offers to prove a purchase, read once from its request.
package enum Credential: Sendable {
    /// `Authorization: Bearer <token>`: a download token issued by verify, restore-sync or the entitlements
    /// route, checked here.
    case downloadToken(String)
    /// A store's own proof in the body (the App Store's receipt, signed transactions or transaction id), as
    /// that store's module read it.
    case store(any StoreCredential)
}

/// A store's proof of purchase as its module reads it from a request body; opaque to the store-neutral code,
/// which hands it to the backends that accept it.
package protocol StoreCredential: Sendable {}
