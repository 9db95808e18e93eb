import Foundation
import GatewayCore
import PurchaseLedger

/// A way to check purchase credentials with a store: the App Store's verifyReceipt, a receipt checked
/// here, StoreKit 2 signed transactions, and the next ones. Backends are what a store module adds; they
/// are reached only through ``VerificationService``, which records what they vouch for and decides what
/// it entitles.
///
/// Contract: `verify` returns what the store vouches for, checked against this server's policy (the app's
/// bundle ids, accepted environments), or throws a ``GatewayError`` of the store module's table: invalid
/// credentials (400/422), a verdict that cannot be had now (503), a misconfiguration (502). It must return
/// before `context.deadline`, never logs a credential, and never writes the ledger.
///
/// Only modules that import this SPI can add a backend; a handler module cannot.
@_spi(VerifierBackends)
public protocol VerificationBackend: Sendable {
    /// Whether this backend checks `credential` (the service asks the backends in order).
    func accepts(_ credential: Credential) -> Bool
    func verify(_ credential: Credential, context: RequestContext) throws -> StorePurchases
    /// What a restore (restore-sync) with `credential` brings, under `verify`'s contract. Defaults to what
    /// `verify` vouches for; a backend that can ask the store for the customer's whole history answers that.
    func restore(_ credential: Credential, context: RequestContext) throws -> StorePurchases
    /// The store's server notification in `body`, verified; nil when it is not this backend's kind.
    /// Defaults to nil.
    func notification(_ body: [UInt8], context: RequestContext) throws -> StoreNotification?
    /// The bodies of the store's server notifications sent between `start` and `end`, each as the notification
    /// route would receive it, for a backfill to record through the same path; nil when this backend cannot
    /// list them. Throws like `verify` when the store cannot answer now. Defaults to nil.
    func notificationHistory(from start: Date, to end: Date, context: RequestContext) throws -> [[UInt8]]?
    /// Whether a gateway starting should backfill the notifications this backend lists
    /// (``notificationHistory(from:to:context:)``) since the ledger's last one. Defaults to false.
    var backfillsNotificationsAtStart: Bool { get }
    /// Whether this backend answers its store's consumption requests (``answer(_:facts:context:)``).
    /// Defaults to false.
    var answersConsumptionRequests: Bool { get }
    /// Answers `request` with `facts` as the store asks (the operator's consent and refund policy applied),
    /// or settles it unanswered; nil when the request is not this backend's store's. Throws when the store
    /// cannot take the answer now (a ``GatewayError`` with `Retry-After` says when to try again); the
    /// request is then tried again later. Runs on the consumption responder's thread, never a request's.
    func answer(_ request: ConsumptionRequest, facts: DeliveryFacts, context: RequestContext) throws
        -> ConsumptionReply?
    /// The store's current transactions for a support lookup (an order's, or the history of a transaction's
    /// customer), verified; nil when this backend cannot ask. Defaults to nil.
    func storeView(of query: SupportQuery, context: RequestContext) throws -> StorePurchases?
    /// The most recent failure to reach the store, with its time, for `/v1/status`. Defaults to nil.
    var lastUpstreamError: String? { get }
    /// Tells the store module that app account `accountId` now holds the purchase of `transaction` (bound or
    /// transferred to it; the ledger has recorded it), for a store that keeps the app's account with the
    /// purchase. Must return at once: calls to the store go to the backend's own thread. Defaults to nothing.
    func purchaseBound(
        _ transaction: PurchaseTransaction, environment: String, to accountId: String,
        context: RequestContext)
}

@_spi(VerifierBackends)
extension VerificationBackend {
    public func restore(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
        try verify(credential, context: context)
    }

    public func notification(_ body: [UInt8], context: RequestContext) throws -> StoreNotification? { nil }
    public func notificationHistory(from start: Date, to end: Date, context: RequestContext) throws -> [[UInt8]]? {
        nil
    }
    public var backfillsNotificationsAtStart: Bool { false }
    public var answersConsumptionRequests: Bool { false }
    public func answer(_ request: ConsumptionRequest, facts: DeliveryFacts, context: RequestContext) throws
        -> ConsumptionReply?
    {
        nil
    }
    public func storeView(of query: SupportQuery, context: RequestContext) throws -> StorePurchases? { nil }
    public var lastUpstreamError: String? { nil }
    public func purchaseBound(
        _ transaction: PurchaseTransaction, environment: String, to accountId: String, context: RequestContext
    ) {}
}
