import Foundation
import GatewayCore
import ProductCatalog
import PurchaseLedger
import Synchronization

/// The one way handlers verify purchases: asks the load's store backends about a credential, records what
/// they vouch for in the ledger, and decides what it entitles (DESIGN: the seam). Built once per load from
/// the binary's ``VerifierRegistry`` and shared by every route, so they share caches and connections.
public final class VerificationService: Sendable {
    let backends: [any VerificationBackend]
    /// Set when `tokens.secret` is: entitlements to products with content then carry download tokens.
    let tokens: DownloadTokens?
    let catalog: Catalog
    let ledger: any PurchaseLedger
    /// Set when requests may be for an app account (config `accounts`).
    let accounts: AccountSettings?
    /// What this service committed, so an answer that brings nothing new costs no write.
    let committed = CommittedTransactions()
    /// Answers consumption requests once started (``startBackgroundWork(runtime:)``).
    let responder = Mutex<ConsumptionResponder?>(nil)

    init(
        backends: [any VerificationBackend], tokens: DownloadTokens?, catalog: Catalog, ledger: any PurchaseLedger,
        accounts: AccountSettings? = nil
    ) {
        self.backends = backends
        self.tokens = tokens
        self.catalog = catalog
        self.ledger = ledger
        self.accounts = accounts
    }

    static let key = SharedKey<VerificationService>("PurchaseVerification.service")

    /// Verifies the credential in `request`'s body (a receipt or signed transactions; 400 without one),
    /// records its transactions as coming from `source`, and answers with the entitlements they give, each
    /// with a fresh download token when tokens are configured and the product has content. A request for an
    /// app account (``AccountSettings``) also claims the purchases for it under the restore policy.
    public func verify(_ request: GatewayRequest, source: LedgerSource, context: RequestContext) throws
        -> VerifiedPurchases
    {
        let account = try accounts?.account(of: request)
        var verified = try verify(Credential(verificationRequest: request), source: source, context: context)
        if let account { verified = try bind(verified, to: account, context: context) }
        return verified.issuingTokens(tokens, catalog: catalog)
    }

    /// Verifies `credential` with the first backend that takes it, then records what it vouches for.
    func verify(_ credential: Credential, source: LedgerSource, context: RequestContext) throws
        -> VerifiedPurchases
    {
        guard let backend = backends.first(where: { $0.accepts(credential) }) else {
            throw GatewayError.badRequest("This server cannot verify that kind of purchase.")
        }
        let purchases =
            source == .restoreSync
            ? try backend.restore(credential, context: context) : try backend.verify(credential, context: context)
        return try record(purchases, source: source, context: context)
    }

    /// The most recent failure to reach a store, with its time, for `/v1/status`.
    public var lastUpstreamError: String? {
        // Each starts with its ISO 8601 time, so the greatest is the latest.
        backends.compactMap(\.lastUpstreamError).max()
    }

    /// Whether the ledger can be read right now, for `/v1/status`.
    public var ledgerIsHealthy: Bool {
        do {
            try ledger.checkHealth()
            return true
        } catch {
            return false
        }
    }
}
