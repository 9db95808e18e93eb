import Foundation
import GatewayHandlerAPI

/// A way to check purchase credentials with a store: the App Store's verifyReceipt, a receipt checked here,
/// StoreKit 2 signed transactions, and the next ones. Backends are what a store module adds; they are reached
/// only through the load's verification services, which record what they vouch for and decide what it
/// entitles.
///
/// Contract: `verify` returns what the store vouches for, checked against this server's policy (the app's
/// bundle ids, accepted environments), or throws a ``GatewayError`` of the store module's table: invalid
/// credentials (400/422), a verdict that cannot be had now (503), a misconfiguration (502). It must return
/// before `context.deadline`, never logs a credential, and never writes the ledger.
package protocol VerificationBackend: Sendable {
    /// Whether this backend checks `credential` (the services ask the backends in order).
    func accepts(_ credential: Credential) -> Bool
    func verify(_ credential: Credential, context: RequestContext) throws -> StorePurchases
    /// What a restore (restore-sync) with `credential` brings, under `verify`'s contract. Defaults to what
    /// `verify` vouches for; a backend that can ask the store for the customer's whole history answers that.
    func restore(_ credential: Credential, context: RequestContext) throws -> StorePurchases
    /// The store's server notification `delivery`, verified; nil when its body is not this backend's kind.
    /// Defaults to nil.
    func notification(_ delivery: NotificationDelivery, context: RequestContext) throws -> StoreNotification?
    /// The bodies of the store's server notifications sent between `start` and `end`, each as the notification
    /// route would receive it, for a backfill to record through the same path; nil when this backend cannot
    /// list them. Throws like `verify` when the store cannot answer now. Defaults to nil.
    func notificationHistory(from start: Date, to end: Date, context: RequestContext) throws -> [[UInt8]]?
    /// The purchases the store voided between `start` and `end` (refunds and chargebacks it tells of in a list
    /// rather than, or as well as, in notifications), for a backfill to end; nil when this backend cannot list
    /// them. Throws like `verify` when the store cannot answer now. Defaults to nil.
    func voidedPurchases(from start: Date, to end: Date, context: RequestContext) throws -> [VoidedPurchase]?
    /// How often a serving gateway asks the store for the purchases it voided (``voidedPurchases(from:to:context:)``),
    /// or nil for never. Defaults to nil.
    var voidedPurchasesPollInterval: TimeInterval? { get }
    /// Whether a gateway starting should backfill the notifications this backend lists
    /// (``notificationHistory(from:to:context:)``) since the ledger's last one. Defaults to false.
    var backfillsNotificationsAtStart: Bool { get }
    /// The store's current transactions for a support lookup (an order's, or the history of a transaction's
    /// customer), verified; nil when this backend cannot ask. Defaults to nil.
    func storeView(of query: SupportQuery, context: RequestContext) throws -> StorePurchases?
    /// The ids the ledger may keep the store's order `orderId` under, for a support lookup by an order id as the
    /// customer's receipt shows it. Defaults to none.
    func ledgerIds(ofOrder orderId: String) -> [String]
    /// The most recent failure to reach the store, with its time, for `/v1/status`. Defaults to nil.
    var lastUpstreamError: String? { get }
    /// Tells the store module that app account `accountId` now holds the purchase of `transaction` (bound or
    /// transferred to it; the ledger has recorded it), for a store that keeps the app's account with the
    /// purchase. Must return at once: calls to the store go to the backend's own thread. Defaults to nothing.
    func purchaseBound(
        _ transaction: PurchaseTransaction, environment: String, to accountId: String,
        context: RequestContext)
    /// Starts the work this backend does beside requests in a serving gateway, on threads of its own (answering
    /// the store's requests for delivery evidence, telling it what it must hear); none by default.
    func startBackgroundWork(_ services: StoreServices) -> [any BackgroundWork]
    /// What signs this store's subscription offers for the app (the offers route); none by default.
    var offerSigning: (any OfferSigning)? { get }
}

extension VerificationBackend {
    package func restore(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
        try verify(credential, context: context)
    }

    package func notification(_ delivery: NotificationDelivery, context: RequestContext) throws -> StoreNotification? {
        nil
    }
    package func notificationHistory(from start: Date, to end: Date, context: RequestContext) throws -> [[UInt8]]? {
        nil
    }
    package func voidedPurchases(from start: Date, to end: Date, context: RequestContext) throws -> [VoidedPurchase]? {
        nil
    }
    package var voidedPurchasesPollInterval: TimeInterval? { nil }
    package var backfillsNotificationsAtStart: Bool { false }
    package func storeView(of query: SupportQuery, context: RequestContext) throws -> StorePurchases? { nil }
    package func ledgerIds(ofOrder orderId: String) -> [String] { [] }
    package var lastUpstreamError: String? { nil }
    package func purchaseBound(
        _ transaction: PurchaseTransaction, environment: String, to accountId: String, context: RequestContext
    ) {}
    package func startBackgroundWork(_ services: StoreServices) -> [any BackgroundWork] { [] }
    package var offerSigning: (any OfferSigning)? { nil }
}

/// Work a backend runs beside requests, for as long as its load serves.
package protocol BackgroundWork: Sendable {
    /// Something it waits for was just recorded (a store's request for delivery evidence): look now.
    func wake()
    /// Ends the work after what it is doing now (a reload's new load takes over).
    func stop()
}
