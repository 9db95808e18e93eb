import Foundation

/// A product the buyer may have now, the purchase that gives it, and the download token issued for it.
public struct Entitlement: Sendable, Equatable {
    public let productId: String
    /// The store the purchase is from (`app-store`, `google-play`), or `grant` for a free grant.
    public let store: String
    public let originalTransactionId: String
    /// The end of the current subscription period; nil for purchases that do not expire.
    public let expiresDate: Date?
    /// Set when tokens are configured and the product has content.
    public var downloadToken: DownloadToken? { issuedToken }
    /// Stored apart from its public getter: a `package(set)` stored property's key path casts to a writable one
    /// in a handler module (found by a fourth reviewer), a get-only computed property's does not.
    package var issuedToken: DownloadToken?

    package init(productId: String, store: String, originalTransactionId: String, expiresDate: Date?) {
        self.productId = productId
        self.store = store
        self.originalTransactionId = originalTransactionId
        self.expiresDate = expiresDate
    }
}

/// A download token as verify, restore-sync and the entitlements route hand it out: the text a client sends
/// as `Authorization: Bearer`, and when it stops working.
public struct DownloadToken: Sendable, Equatable {
    public let token: String
    public let expires: Date

    package init(token: String, expires: Date) {
        self.token = token
        self.expires = expires
    }
}
